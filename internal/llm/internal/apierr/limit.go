package apierr

import (
	"regexp"
	"strconv"
)

// OutputLimit reads, from a 400 answer's message, the largest reply limit
// (max_tokens) the server would have taken, for a request whose limit was
// asked: a model's cap on its output, or what the context window leaves
// after the prompt. The runner asks for the turn's whole budget, which
// can be more than a model writes at once; the same call with the limit
// lowered to what the server names is what the user would want. perModel
// reports a cap of the model's own, that holds for its every call, rather
// than one that depends on this prompt's length. ok is false when the
// message names no limit, or one no lower than asked.
func OutputLimit(msg string, asked int) (limit int, perModel, ok bool) {
	for _, p := range outputLimits {
		m := p.re.FindStringSubmatch(msg)
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(m[1])
		if err != nil {
			continue
		}
		if len(m) > 2 {
			used, err := strconv.Atoi(m[2])
			if err != nil {
				continue
			}
			n -= used
		}
		// A few tokens are no reply: the prompt itself fills the window,
		// which the context hint says.
		if n < minOutputLimit || n >= asked {
			return 0, false, false
		}
		return n, p.perModel, true
	}
	return 0, false, false
}

// minOutputLimit is the least limit worth a second try.
const minOutputLimit = 64

var outputLimits = []struct {
	re       *regexp.Regexp
	perModel bool
}{
	// OpenAI: "max_tokens is too large: 100000. This model supports at
	// most 16384 completion tokens, whereas you provided 100000."
	{regexp.MustCompile(`supports at most (\d+) completion tokens`), true},
	// Anthropic: "max_tokens: 64000 > 32000, which is the maximum allowed
	// number of output tokens for claude-opus-4-20250514".
	{regexp.MustCompile(`max_tokens: \d+ > (\d+), which is the maximum allowed`), true},
	// DeepSeek: "Invalid max_tokens value, the valid range of max_tokens
	// is [1, 8192]".
	{regexp.MustCompile(`valid range of max_tokens is \[1, (\d+)\]`), true},
	// Groq: "`max_tokens` must be less than or equal to `32768`, the
	// maximum value for `max_tokens` is less than the `context_window` for
	// this model", "max_completion_tokens must be less than or equal to
	// 40960, ...", "max_tokens for `llama-3.1-8b-instant` must be less than
	// or equal to 8000".
	{regexp.MustCompile("max_(?:completion_)?tokens`?(?: for `[^`]+`)? must be less than or equal to `?(\\d+)"), true},
	// vLLM: "'max_tokens' or 'max_completion_tokens' is too large: 5000.
	// This model's maximum context length is 4096 tokens and your request
	// has 1000 input tokens (5000 > 4096 - 1000)."
	{regexp.MustCompile(`maximum context length is (\d+) tokens and your request has (\d+) input tokens`), false},
	// vLLM before 0.8, OpenAI's older wording: "This model's maximum
	// context length is 4096 tokens. However, you requested 5000 tokens
	// (3000 in the messages, 2000 in the completion)."
	{regexp.MustCompile(`maximum context length is (\d+) tokens\. However, you requested \d+ tokens \((\d+) in the messages, \d+ in the completion\)`), false},
}
