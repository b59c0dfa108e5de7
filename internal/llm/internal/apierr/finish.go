package apierr

import (
	"fmt"
	"strings"

	"github.com/parleyhq/parley/internal/llm"
)

// FailedFinish is the error for a finish reason that says the server gave
// up on the generation part way, so that what came is not the whole
// reply, or nil. The same request may well work when tried again. The
// Anthropic-compatible side sees the same words from proxies that pass an
// OpenAI-compatible server's finish_reason through as its stop_reason.
func FailedFinish(finish string) *llm.Error {
	var kind llm.ErrorKind
	var why string
	switch strings.ToLower(finish) {
	case "error", "malformed_function_call":
		// Mistral's and vLLM's word for a generation that failed part
		// way, and Gemini's for a tool call it could not parse.
		kind, why = llm.ErrServer, "generation failed part way"
	case "abort":
		// vLLM's and SGLang's: the engine aborted the request (a
		// preemption, a failed KV transfer, a shutdown) while the client
		// still waited.
		kind, why = llm.ErrServer, "the server aborted the generation part way"
	case "insufficient_system_resource":
		// DeepSeek's: "the request is interrupted due to insufficient
		// resource of the inference system". Waiting clears it up, as
		// it does an overloaded server.
		kind, why = llm.ErrOverloaded, "the server ran out of resources part way"
	case "repetition":
		// vLLM's: it stopped a reply caught repeating itself. What came
		// is a loop cut short; another sample may not loop.
		kind, why = llm.ErrMalformed, "the server stopped a reply that repeated itself"
	default:
		return nil
	}
	return &llm.Error{Kind: kind,
		Err: fmt.Errorf("the server ended the reply with finish reason %q: %s; what came is not the whole reply", finish, why)}
}
