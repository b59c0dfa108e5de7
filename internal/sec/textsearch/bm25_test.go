package textsearch

import "testing"

func TestSearchRanksByTermWeight(t *testing.T) {
	ix := New([]string{
		"Revenue grew on data center demand.",
		"Export controls restrict sales of our products to China; export licenses may be denied.",
		"The weather was fine.",
		"We face risks from export regulations.",
	})
	hits := ix.Search("export controls China", 3)
	if len(hits) != 2 || hits[0].Passage != 1 || hits[1].Passage != 3 {
		t.Fatalf("hits = %+v, want passages 1 then 3", hits)
	}
	if hits[0].Score <= hits[1].Score {
		t.Errorf("scores not descending: %+v", hits)
	}
	if got := ix.Search("the of and", 5); len(got) != 0 {
		t.Errorf("stop words matched: %+v", got)
	}
	if got := New(nil).Search("anything", 5); len(got) != 0 {
		t.Errorf("empty index matched: %+v", got)
	}
}

func TestTokens(t *testing.T) {
	got := Tokens("The Risks of NVIDIA's H20 exports, 2025.")
	want := []string{"risk", "nvidia", "h20", "export", "2025"}
	if len(got) != len(want) {
		t.Fatalf("Tokens = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("Tokens = %q, want %q", got, want)
		}
	}
}
