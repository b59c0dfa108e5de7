package fakellm

import (
	"crypto/sha256"
	"encoding/binary"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/parleyhq/parley/internal/llm"
)

// Token accounting, as a real provider reports it.
//
// The server counts every input the model reads, not only the words a script
// matches on: tool definitions and the response schema, the system prompt, and
// every message of every role (assistant turns, tool calls with their
// arguments, tool results). A token is approximated as four characters
// (runes) of that text, rounded up per part, plus a small framing overhead per
// message, which is close to what BPE tokenizers give for English prose and
// JSON. The approximation is stated, not hidden: it is for benchmarks that
// compare token growth and cache use between versions of Parley, not for
// billing.
//
// Prompt caching is simulated the way each provider does it:
//   - Anthropic caches explicitly: the prefix up to a block marked with
//     cache_control is written to the cache (cache_creation_input_tokens) the
//     first time and read from it (cache_read_input_tokens) when the same
//     prefix comes again within the cache's lifetime. The longest marked
//     prefix found in the cache is read; the rest up to the last mark is
//     written.
//   - OpenAI caches automatically: the longest prefix of the request seen in
//     an earlier request within the lifetime is reported as cached_tokens,
//     rounded down to 128-token steps.
//
// Both only cache prefixes of at least MinCacheTokens, and an entry lives for
// CacheTTL after its last use, as the providers document. Prefixes are
// compared at part boundaries (tools, system, each message), which is where
// Parley's prompts differ from one request to the next.
const (
	// CharsPerToken is the approximation of the tokenizer.
	CharsPerToken = 4
	// MessageOverhead is the framing each message costs (role markers).
	MessageOverhead = 3
	// MinCacheTokens is the shortest prefix the providers cache.
	MinCacheTokens = 1024
	// CacheStep is OpenAI's granularity for cached tokens.
	CacheStep = 128
	// CacheTTL is how long an unused prefix stays cached.
	CacheTTL = 5 * time.Minute
)

// Tokens approximates the token count of s: four characters to a token,
// rounded up.
func Tokens(s string) int {
	n := utf8.RuneCountInString(s)
	return (n + CharsPerToken - 1) / CharsPerToken
}

// part is one piece of a request's input in the order the model reads it:
// its token count, a digest of its content, and whether the client marked
// the prefix ending with it as cacheable.
type part struct {
	tokens int
	digest [32]byte
	mark   bool
}

// parts lists a request's input in reading order: tools (and the structured
// output schema), system prompt, messages.
func parts(req llm.Request) []part {
	var out []part
	// add appends a part; kind only tells parts apart in the digest (a tool
	// and a message with the same text are not the same prefix).
	add := func(mark bool, overhead int, kind string, texts ...string) {
		h := sha256.New()
		h.Write([]byte(kind + "\x00"))
		n := overhead
		for _, t := range texts {
			n += Tokens(t)
			var l [8]byte
			binary.LittleEndian.PutUint64(l[:], uint64(len(t)))
			h.Write(l[:])
			h.Write([]byte(t))
		}
		p := part{tokens: n, mark: mark}
		copy(p.digest[:], h.Sum(nil))
		out = append(out, p)
	}
	for _, t := range req.Tools {
		add(false, 0, "tool", t.Name, t.Description, string(t.Schema))
	}
	if s := req.Schema; s != nil {
		add(false, 0, "schema", s.Name, s.Description, string(s.JSON))
	}
	if req.System != "" {
		add(req.CacheSystem, MessageOverhead, "system", req.System)
	}
	for _, m := range req.Messages {
		texts := []string{m.Text}
		for _, tc := range m.ToolCalls {
			texts = append(texts, tc.Name, string(tc.Args))
		}
		for _, tr := range m.ToolResults {
			texts = append(texts, tr.Content)
		}
		add(m.Cache, MessageOverhead, string(m.Role), texts...)
	}
	return out
}

// promptCache remembers the prefixes a server has seen, per model, with the
// time each was last used.
type promptCache struct {
	mu      sync.Mutex
	entries map[[32]byte]time.Time
}

// cacheMode is how a wire API caches prompts.
type cacheMode int

const (
	cacheExplicit  cacheMode = iota // Anthropic: cache_control marks
	cacheAutomatic                  // OpenAI: any repeated prefix
)

// usage returns the input side of the usage a provider would report for req
// at now, and records the request's prefixes in the cache. out is the output
// token count.
func (c *promptCache) usage(req llm.Request, mode cacheMode, now time.Time, out int) llm.Usage {
	ps := parts(req)
	// Prefix keys: key[i] identifies the model plus parts[0..i].
	keys := make([][32]byte, len(ps))
	cum := make([]int, len(ps))
	prev := sha256.Sum256([]byte("model\x00" + req.Model))
	total := 0
	for i, p := range ps {
		total += p.tokens
		cum[i] = total
		h := sha256.New()
		h.Write(prev[:])
		h.Write(p.digest[:])
		copy(keys[i][:], h.Sum(nil))
		prev = keys[i]
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.entries == nil {
		c.entries = map[[32]byte]time.Time{}
	}
	live := func(i int) bool {
		t, ok := c.entries[keys[i]]
		return ok && now.Sub(t) <= CacheTTL
	}
	u := llm.Usage{OutputTokens: out}
	switch mode {
	case cacheExplicit:
		last := -1
		for i, p := range ps {
			if p.mark && cum[i] >= MinCacheTokens {
				last = i
			}
		}
		read := 0
		for i := last; i >= 0; i-- {
			if ps[i].mark && live(i) {
				read = cum[i]
				break
			}
		}
		if last >= 0 {
			u.CacheReadTokens = read
			u.CacheWriteTokens = cum[last] - read
			for i := 0; i <= last; i++ {
				if ps[i].mark && cum[i] >= MinCacheTokens {
					c.entries[keys[i]] = now
				}
			}
		}
	case cacheAutomatic:
		for i := len(ps) - 1; i >= 0; i-- {
			if cum[i] >= MinCacheTokens && live(i) {
				u.CacheReadTokens = cum[i] / CacheStep * CacheStep
				break
			}
		}
		for i := range ps {
			if cum[i] >= MinCacheTokens {
				c.entries[keys[i]] = now
			}
		}
	}
	u.InputTokens = total - u.CacheReadTokens - u.CacheWriteTokens
	c.expire(now)
	return u
}

// expire drops entries past their lifetime so that a long benchmark does not
// grow the map without bound. c.mu is held.
func (c *promptCache) expire(now time.Time) {
	if len(c.entries) < 4096 {
		return
	}
	for k, t := range c.entries {
		if now.Sub(t) > CacheTTL {
			delete(c.entries, k)
		}
	}
}

// InputTokens is the number of input tokens the server counts for req,
// cached or not.
func InputTokens(req llm.Request) int {
	n := 0
	for _, p := range parts(req) {
		n += p.tokens
	}
	return n
}

// OutputTokens is the number of output tokens the server reports for a reply.
func OutputTokens(text string, calls []llm.ToolCall) int { return outputTokens(text, calls) }

// outputTokens counts a reply's text and tool call arguments.
func outputTokens(text string, calls []llm.ToolCall) int {
	n := Tokens(text)
	for _, tc := range calls {
		n += Tokens(tc.Name) + Tokens(string(tc.Args))
	}
	return n
}
