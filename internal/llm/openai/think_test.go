package openai

import (
	"strings"
	"testing"
)

func TestThinkFilter(t *testing.T) {
	all := []thinkMode{thinkUnknown, thinkPlain}
	cases := []struct {
		modes  []thinkMode
		deltas []string
		cut    bool // stopped at the token limit
		want   string
		late   bool // an orphan </think> after text was passed on
		learn  thinkMode
	}{
		// A block the model opens itself.
		{all, []string{"<think>\nhmm {x}\n</think>\n\n", "Answer"}, false, "Answer", false, thinkPlain},
		{all, []string{"<th", "ink>a", "b</th", "ink>", "Ans", "wer"}, false, "Answer", false, thinkPlain},
		{all, []string{"\n<think>", "</think>Answer"}, false, "Answer", false, thinkPlain},
		{all, []string{"Answer <think>kept</think>"}, false, "Answer <think>kept</think>", false, thinkPlain},
		{all, []string{"Answer <thi", "nk>kept</think> and more"}, false, "Answer <think>kept</think> and more", false, thinkPlain},
		{all, []string{"<", "b>bold</b>"}, false, "<b>bold</b>", false, thinkPlain},
		{all, []string{"<th"}, false, "<th", false, -1},
		{all, []string{"<think>cut while thinking"}, true, "", false, -1},
		{all, []string{"", "Answer"}, false, "Answer", false, thinkPlain},
		// An orphan close, the template having opened the block.
		{[]thinkMode{thinkUnknown}, []string{"Reasoning {x}\n</think>\n\nAnswer"}, false, "Answer", false, thinkOrphan},
		{[]thinkMode{thinkUnknown}, []string{"\n", "</th", "ink>\n\nAns", "wer"}, false, "Answer", false, thinkOrphan},
		{[]thinkMode{thinkUnknown}, []string{"Reason", "ing</thi", "nk>Answer"}, false, "Reasoning", true, thinkOrphan},
		{[]thinkMode{thinkUnknown}, []string{"\n</think>"}, false, "", false, thinkOrphan},
		{[]thinkMode{thinkUnknown}, []string{"a < b", " and c </", "b>"}, false, "a < b and c </b>", false, thinkPlain},
		{[]thinkMode{thinkUnknown}, []string{"Reasoning"}, true, "Reasoning", false, thinkUnknown},
		// A plain model's answer may mention the tag.
		{[]thinkMode{thinkPlain}, []string{"Parsers split at ", "</think> tags."}, false, "Parsers split at </think> tags.", false, thinkPlain},
		// A model known to reply inside the template's block.
		{[]thinkMode{thinkOrphan}, []string{"Reason", "ing {x}</thi", "nk>\n\nAns", "wer"}, false, "Answer", false, thinkOrphan},
		{[]thinkMode{thinkOrphan}, []string{"<think>Reasoning</think>Answer"}, false, "Answer", false, thinkOrphan},
		{[]thinkMode{thinkOrphan}, []string{"Reasoning cut"}, true, "", false, thinkOrphan},
		{[]thinkMode{thinkOrphan}, []string{"An answer", " without reasoning"}, false, "An answer without reasoning", false, thinkUnknown},
		{[]thinkMode{thinkOrphan}, nil, false, "", false, thinkOrphan},
		{[]thinkMode{thinkUnknown}, nil, false, "", false, thinkUnknown},
	}
	for _, c := range cases {
		for _, mode := range c.modes {
			f := newThinkFilter(mode)
			var got strings.Builder
			late := false
			for _, d := range c.deltas {
				out, l := f.feed(d)
				got.WriteString(out)
				if l {
					late = true
					break
				}
			}
			learn := f.learned(c.cut)
			if !late {
				got.WriteString(f.flush(c.cut))
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

// An orphan block longer than maxHeld is dropped whole, not returned when
// no close comes.
func TestThinkFilterHeldBound(t *testing.T) {
	f := newThinkFilter(thinkOrphan)
	chunk := strings.Repeat("x", 64<<10)
	for range (maxHeld / len(chunk)) + 2 {
		if out, late := f.feed(chunk); out != "" || late {
			t.Fatalf("%q %v", out, late)
		}
	}
	if len(f.pending) > maxHeld {
		t.Errorf("holds %d bytes, more than %d", len(f.pending), maxHeld)
	}
	if out := f.flush(false); out != "" {
		t.Errorf("flush returned %d bytes of an overlong block", len(out))
	}
}
