package think

import (
	"strings"
	"testing"
)

func TestThinkFilter(t *testing.T) {
	all := []Mode{Unknown, Plain}
	cases := []struct {
		modes  []Mode
		deltas []string
		cut    bool // stopped at the token limit
		want   string
		late   bool // an orphan </think> after text was passed on
		learn  Mode
	}{
		// A block the model opens itself.
		{all, []string{"<think>\nhmm {x}\n</think>\n\n", "Answer"}, false, "Answer", false, Opens},
		{all, []string{"<th", "ink>a", "b</th", "ink>", "Ans", "wer"}, false, "Answer", false, Opens},
		{all, []string{"\n<think>", "</think>Answer"}, false, "Answer", false, Opens},
		{all, []string{"Answer <think>kept</think>"}, false, "Answer <think>kept</think>", false, Plain},
		{all, []string{"Answer <thi", "nk>kept</think> and more"}, false, "Answer <think>kept</think> and more", false, Plain},
		{all, []string{"<", "b>bold</b>"}, false, "<b>bold</b>", false, Plain},
		{all, []string{"<th"}, false, "<th", false, -1},
		{all, []string{"<think>cut while thinking"}, true, "", false, -1},
		{all, []string{"", "Answer"}, false, "Answer", false, Plain},
		// An orphan close, the template having opened the block.
		{[]Mode{Unknown}, []string{"Reasoning {x}\n</think>\n\nAnswer"}, false, "Answer", false, Orphan},
		{[]Mode{Unknown}, []string{"\n", "</th", "ink>\n\nAns", "wer"}, false, "Answer", false, Orphan},
		{[]Mode{Unknown}, []string{"Reason", "ing</thi", "nk>Answer"}, false, "Reasoning", true, Orphan},
		{[]Mode{Unknown}, []string{"\n</think>"}, false, "", false, Orphan},
		{[]Mode{Unknown}, []string{"a < b", " and c </", "b>"}, false, "a < b and c </b>", false, Plain},
		{[]Mode{Unknown}, []string{"Reasoning"}, true, "Reasoning", false, Unknown},
		// A plain model's answer may mention the tag.
		{[]Mode{Plain}, []string{"Parsers split at ", "</think> tags."}, false, "Parsers split at </think> tags.", false, Plain},
		// A model known to reply inside the template's block.
		{[]Mode{Orphan}, []string{"Reason", "ing {x}</thi", "nk>\n\nAns", "wer"}, false, "Answer", false, Orphan},
		{[]Mode{Orphan}, []string{"<think>Reasoning</think>Answer"}, false, "Answer", false, Orphan},
		{[]Mode{Orphan}, []string{"Reasoning cut"}, true, "", false, Orphan},
		{[]Mode{Orphan}, []string{"An answer", " without reasoning"}, false, "An answer without reasoning", false, Unknown},
		{[]Mode{Orphan}, nil, false, "", false, Orphan},
		{[]Mode{Unknown}, nil, false, "", false, Unknown},
	}
	for _, c := range cases {
		for _, mode := range c.modes {
			f := New(mode)
			var got strings.Builder
			late := false
			for _, d := range c.deltas {
				out, l := f.Feed(d)
				got.WriteString(out)
				if l {
					late = true
					break
				}
			}
			learn := f.Learned(c.cut)
			if !late {
				got.WriteString(f.Flush(c.cut))
			}
			want := c.learn
			if want < 0 {
				want = mode
			}
			if got.String() != c.want || late != c.late || learn != want {
				t.Errorf("mode %d, %q: got %q late=%v learned %d, want %q late=%v learned %d", mode, c.deltas, got.String(), late, learn, c.want, c.late, want)
			}
		}
	}
}

// An orphan block longer than MaxHeld is dropped whole, not returned when
// no close comes.
func TestThinkFilterHeldBound(t *testing.T) {
	f := New(Orphan)
	chunk := strings.Repeat("x", 64<<10)
	for range (MaxHeld / len(chunk)) + 2 {
		if out, late := f.Feed(chunk); out != "" || late {
			t.Fatalf("%q %v", out, late)
		}
	}
	if len(f.pending) > MaxHeld {
		t.Errorf("holds %d bytes, more than %d", len(f.pending), MaxHeld)
	}
	if out := f.Flush(false); out != "" {
		t.Errorf("flush returned %d bytes of an overlong block", len(out))
	}
}

// Each change a user should know of is said, and only those.
func TestChange(t *testing.T) {
	for _, c := range []struct {
		from, to Mode
		ok       bool
	}{
		{Unknown, Orphan, true}, {Plain, Orphan, true}, {Unknown, Opens, true}, {Plain, Opens, true},
		{Orphan, Unknown, true}, {Unknown, Plain, false}, {Opens, Opens, false},
	} {
		if _, msg, ok := Change(c.from, c.to); ok != c.ok || ok && msg == "" {
			t.Errorf("%d to %d: %v %q, want said=%v", c.from, c.to, ok, msg, c.ok)
		}
	}
}
