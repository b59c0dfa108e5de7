package anthropic_test

import (
	"testing"

	"github.com/parleyhq/parley/internal/llm/llmtest"
)

// A hostile server that ends every reply with a new stop reason gets a
// bounded number of warnings (and of reasons remembered), the last saying
// that more are not said; each reason is logged cleaned and cut.
func TestUnknownStopReasonsAreBounded(t *testing.T) {
	llmtest.UnknownReasonsBounded(t, "stop reason", loggedServer, func(stop string) string { return start + text + delta(stop) + stopEv }, ask)
}
