package anthropic_test

import (
	"testing"

	"github.com/parleyhq/parley/internal/llm/llmtest"
)

// A stop reason Parley does not know (a newer API's, a compatible
// server's own word) ends the reply as end_turn does, and is said once
// per model and reason, so that a new meaning does not pass unseen; the
// API's own reasons are said nothing of.
func TestUnknownStopReasonIsSaidOnce(t *testing.T) {
	llmtest.UnknownReasonSaidOnce(t, loggedServer, func(stop string) string { return start + text + delta(stop) + stopEv }, ask,
		map[string]bool{"compaction": true, "end_turn": false, "stop_sequence": false})
}
