package openai_test

import (
	"testing"

	"github.com/parleyhq/parley/internal/llm/llmtest"
)

// A hostile server that ends every reply with a new finish_reason gets a
// bounded number of warnings (and of reasons remembered), the last saying
// that more are not said; each reason is logged cleaned and cut.
func TestUnknownFinishReasonsAreBounded(t *testing.T) {
	llmtest.UnknownReasonsBounded(t, "finish reason", loggedServer, finishedWith, ask)
}
