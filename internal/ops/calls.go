package ops

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strings"
	"sync"

	"github.com/parleyhq/parley/internal/llm"
)

// Calls counts this process's model calls, tokens and provider errors by
// provider: a decorator around every provider the process's runs use.
// Prometheus sums the processes of a cluster.
type Calls struct {
	mu     sync.Mutex
	calls  map[string]float64    // provider
	tokens map[[2]string]float64 // provider, kind
	errs   map[[2]string]float64 // provider, error kind
}

// Wrap returns p counting into c; use it as app.App.WrapProvider.
func (c *Calls) Wrap(p llm.Provider) llm.Provider { return counted{Provider: p, c: c} }

type counted struct {
	llm.Provider
	c *Calls
}

func (p counted) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		name := p.Name()
		p.c.add(func() { p.c.calls[name]++ })
		for ch, err := range p.Provider.Stream(ctx, req) {
			if err != nil {
				kind := "other"
				var le *llm.Error
				if errors.As(err, &le) {
					kind = string(le.Kind)
				}
				if ctx.Err() == nil {
					p.c.add(func() { p.c.errs[[2]string{name, kind}]++ })
				}
			}
			if u := ch.Usage; u != nil {
				p.c.add(func() {
					p.c.tokens[[2]string{name, "input"}] += float64(u.InputTokens)
					p.c.tokens[[2]string{name, "output"}] += float64(u.OutputTokens)
					p.c.tokens[[2]string{name, "cache_read"}] += float64(u.CacheReadTokens)
					p.c.tokens[[2]string{name, "cache_write"}] += float64(u.CacheWriteTokens)
				})
			}
			if !yield(ch, err) {
				return
			}
		}
	}
}

func (c *Calls) add(f func()) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.calls == nil {
		c.calls, c.tokens, c.errs = map[string]float64{}, map[[2]string]float64{}, map[[2]string]float64{}
	}
	f()
}

// write appends the counters in the Prometheus text format.
func (c *Calls) write(b *strings.Builder) {
	c.mu.Lock()
	defer c.mu.Unlock()
	fmt.Fprintf(b, "# HELP parley_provider_calls_total Model calls this process made, by provider.\n# TYPE parley_provider_calls_total counter\n")
	for _, k := range sortedKeys(c.calls) {
		fmt.Fprintf(b, "parley_provider_calls_total{provider=%q} %g\n", k, c.calls[k])
	}
	fmt.Fprintf(b, "# HELP parley_provider_tokens_total Tokens this process's calls used, by provider and kind (input, output, cache_read, cache_write).\n# TYPE parley_provider_tokens_total counter\n")
	for _, k := range sortedPairs(c.tokens) {
		fmt.Fprintf(b, "parley_provider_tokens_total{provider=%q,kind=%q} %g\n", k[0], k[1], c.tokens[k])
	}
	fmt.Fprintf(b, "# HELP parley_provider_errors_total Failed model calls of this process, by provider and error kind (rate_limited, overloaded, server, timeout, network, auth…).\n# TYPE parley_provider_errors_total counter\n")
	for _, k := range sortedPairs(c.errs) {
		fmt.Fprintf(b, "parley_provider_errors_total{provider=%q,kind=%q} %g\n", k[0], k[1], c.errs[k])
	}
}

func sortedKeys(m map[string]float64) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func sortedPairs(m map[[2]string]float64) [][2]string {
	out := make([][2]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.SortFunc(out, func(a, b [2]string) int { return strings.Compare(a[0]+"\x00"+a[1], b[0]+"\x00"+b[1]) })
	return out
}
