package app

import (
	"strings"
	"testing"

	"github.com/parleyhq/parley/internal/llm"
)

func TestTokensTextUnreported(t *testing.T) {
	for u, want := range map[llm.Usage]string{
		{InputTokens: 1200, OutputTokens: 30}:                   "1,200 input tokens (0 cached), 30 output tokens",
		{Unreported: true}:                                      "tokens unknown",
		{InputTokens: 1200, OutputTokens: 30, Unreported: true}: "at least 1,200 input tokens",
		// Tokens written to the prompt cache are billed: a follow-up that
		// sends the whole debate does not read as 73 tokens.
		{InputTokens: 73, CacheWriteTokens: 3598, OutputTokens: 27}: "73 input tokens (0 cached, 3,598 written to the cache), 27 output tokens",
	} {
		if got := tokensText(u); !strings.Contains(got, want) {
			t.Errorf("tokensText(%+v) = %q, want it to contain %q", u, got, want)
		}
	}
}
