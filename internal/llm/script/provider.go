package script

import (
	"context"
	"errors"
	"fmt"
	"io"
	"iter"
	"net/http"
	"sync"
	"time"

	"github.com/parleyhq/parley/internal/llm"
	"github.com/parleyhq/parley/internal/llm/internal/apierr"
)

// Provider is an in-process llm.Provider that plays a Script. It exists for
// unit tests of the code above the provider layer (runner, formats) and must
// never be selected by default or by a fallback: a debate "run" against it is
// not a debate. Its Name is "scripted" so that any output it produces is
// visibly labelled.
//
// Faults behave as a real provider reports them: an HTTP fault becomes an
// *llm.Error whose Kind, StatusCode and RetryAfter match what the wire
// providers produce for the same status.
type Provider struct {
	script     *Script
	tokenDelay time.Duration

	mu       sync.Mutex
	requests []llm.Request
}

// ProviderOption configures a Provider.
type ProviderOption func(*Provider)

// WithTokenDelay waits d between stream chunks, to exercise cancellation and
// slow consumers.
func WithTokenDelay(d time.Duration) ProviderOption {
	return func(p *Provider) { p.tokenDelay = d }
}

// NewProvider returns a Provider that plays s.
func NewProvider(s *Script, opts ...ProviderOption) *Provider {
	p := &Provider{script: s}
	for _, o := range opts {
		o(p)
	}
	return p
}

// Name returns "scripted".
func (p *Provider) Name() string { return "scripted" }

// Caps reports every feature, since the Script can answer any request.
func (p *Provider) Caps() llm.Caps { return llm.Caps{Tools: true, JSONSchema: true, PromptCache: true} }

// Requests returns a copy of the requests received so far, in order.
func (p *Provider) Requests() []llm.Request {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]llm.Request(nil), p.requests...)
}

// Stream plays the Script's answer to req.
func (p *Provider) Stream(ctx context.Context, req llm.Request) iter.Seq2[llm.Chunk, error] {
	return func(yield func(llm.Chunk, error) bool) {
		p.mu.Lock()
		p.requests = append(p.requests, req)
		p.mu.Unlock()

		step, err := p.script.Next(req)
		if err != nil {
			yield(llm.Chunk{}, &llm.Error{Provider: p.Name(), Kind: llm.ErrBadRequest, StatusCode: 400, Err: err})
			return
		}
		if err := p.wait(ctx, step.Delay); err != nil {
			yield(llm.Chunk{}, err)
			return
		}
		f := step.Fault
		if f != nil && f.Stream == "" {
			yield(llm.Chunk{}, p.httpFault(f))
			return
		}
		for i, piece := range Split(step.Text) {
			if f != nil && i == f.After {
				yield(llm.Chunk{}, p.streamFault(f))
				return
			}
			if i > 0 {
				if err := p.wait(ctx, p.tokenDelay); err != nil {
					yield(llm.Chunk{}, err)
					return
				}
			}
			if err := p.ctxErr(ctx); err != nil {
				yield(llm.Chunk{}, err)
				return
			}
			if !yield(llm.Chunk{Text: piece}, nil) {
				return
			}
		}
		if f != nil {
			// After is past the end of the text: fail where the stream would end.
			yield(llm.Chunk{}, p.streamFault(f))
			return
		}
		for i := range step.ToolCalls {
			tc := step.ToolCalls[i]
			if !yield(llm.Chunk{ToolCall: &tc}, nil) {
				return
			}
		}
		if err := p.ctxErr(ctx); err != nil {
			yield(llm.Chunk{}, err)
			return
		}
		u := step.Usage
		yield(llm.Chunk{Usage: &u, StopReason: step.StopReason}, nil)
	}
}

func (p *Provider) wait(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return p.ctxErr(ctx)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return p.ctxErr(ctx)
	case <-t.C:
		return nil
	}
}

func (p *Provider) ctxErr(ctx context.Context) error {
	err := ctx.Err()
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.DeadlineExceeded):
		return &llm.Error{Provider: p.Name(), Kind: llm.ErrTimeout, Err: err}
	default:
		return &llm.Error{Provider: p.Name(), Kind: llm.ErrCanceled, Err: err}
	}
}

func (p *Provider) httpFault(f *Fault) *llm.Error {
	if f.Status >= 200 && f.Status < 300 {
		// A success with no body: what the wire providers say of it.
		e := apierr.NoContent(&http.Response{StatusCode: f.Status}, io.EOF)
		e.Provider = p.Name()
		return e
	}
	return &llm.Error{
		Provider:   p.Name(),
		Kind:       llm.KindForStatus(f.Status),
		StatusCode: f.Status,
		RetryAfter: llm.ParseRetryAfter(f.RetryAfter, time.Now()),
		Err:        fmt.Errorf("scripted fault: %s", faultMessage(f)),
	}
}

func (p *Provider) streamFault(f *Fault) *llm.Error {
	switch f.Stream {
	case "cut":
		return &llm.Error{Provider: p.Name(), Kind: llm.ErrNetwork, Err: errors.New("scripted fault: stream cut")}
	case "malformed":
		return &llm.Error{Provider: p.Name(), Kind: llm.ErrMalformed, Tries: apierr.MalformedTries, Err: errors.New("scripted fault: malformed event")}
	default:
		return &llm.Error{Provider: p.Name(), Kind: llm.KindForStatus(f.Status), Err: fmt.Errorf("scripted fault in stream: %s", faultMessage(f))}
	}
}

func faultMessage(f *Fault) string {
	if f.Message != "" {
		return f.Message
	}
	return fmt.Sprintf("HTTP %d", f.Status)
}
