package openai

import (
	"strings"
	"testing"
)

func TestThinkFilter(t *testing.T) {
	cases := []struct {
		deltas []string
		want   string
	}{
		{[]string{"<think>\nhmm {x}\n</think>\n\n", "Answer"}, "Answer"},
		{[]string{"<th", "ink>a", "b</th", "ink>", "Ans", "wer"}, "Answer"},
		{[]string{"\n<think>", "</think>Answer"}, "Answer"},
		{[]string{"Answer <think>kept</think>"}, "Answer <think>kept</think>"},
		{[]string{"<", "b>bold</b>"}, "<b>bold</b>"},
		{[]string{"<th"}, "<th"},
		{[]string{"<think>cut while thinking"}, ""},
		{[]string{"", "Answer"}, "Answer"},
	}
	for _, c := range cases {
		var f thinkFilter
		var got strings.Builder
		for _, d := range c.deltas {
			got.WriteString(f.feed(d))
		}
		got.WriteString(f.flush())
		if got.String() != c.want {
			t.Errorf("%q: got %q, want %q", c.deltas, got.String(), c.want)
		}
	}
}
