package openai_test

import (
	"testing"

	"github.com/parleyhq/parley/internal/llm/llmtest"
)

// A finish_reason Parley does not know (a newer API's, a compatible
// server's own word) ends the reply as "stop" does, and is said once per
// model and reason, so that a new meaning does not pass unseen; the words
// Parley reads are said nothing of.
func TestUnknownFinishReasonIsSaidOnce(t *testing.T) {
	llmtest.UnknownReasonSaidOnce(t, loggedServer, finishedWith, ask, map[string]bool{
		"other": true, "compaction": true, "LANGUAGE": true,
		"stop": false, "STOP": false, "end_turn": false, "eos_token": false, "eos": false,
	})
}

// finishedWith is a reply of "Hello" ended by finish.
func finishedWith(finish string) string {
	return chunk(c1) + chunk(c2) + chunk(`{"choices":[{"index":0,"delta":{},"finish_reason":"`+finish+`"}]}`) + done
}
