package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/parleyhq/parley/internal/llm"
)

// ErrCallLimit marks a call refused because the caller has used up its tool
// calls. The returned error also wraps ErrBadArgs, so that the runner hands
// the message back to the model, which can fix it by answering with what it
// has.
var ErrCallLimit = errors.New("tool call limit reached")

// CallBudget is a number of tool calls shared by the tools it wraps: give
// each agent its own budget (the bullbear spec allows 5 calls per agent).
type CallBudget struct {
	max  int64
	used atomic.Int64
}

// NewCallBudget returns a budget of n calls.
func NewCallBudget(n int) *CallBudget { return &CallBudget{max: int64(n)} }

// Used is the number of calls made, refused ones not included.
func (b *CallBudget) Used() int { return int(min(b.used.Load(), b.max)) }

// Remaining is the number of calls left.
func (b *CallBudget) Remaining() int { return int(b.max) - b.Used() }

// Wrap returns t drawing on this budget.
func (b *CallBudget) Wrap(t Tool) Tool { return &limited{t: t, b: b} }

// Limit returns t allowed n calls of its own. To limit an agent's calls across
// several tools, wrap them with one CallBudget, or use LimitedRegistry.
func Limit(t Tool, n int) Tool { return NewCallBudget(n).Wrap(t) }

// LimitedRegistry returns a registry of tools that together allow n calls:
// build one per agent over the shared (cached) tools.
func LimitedRegistry(n int, tools ...Tool) (*Registry, *CallBudget, error) {
	b := NewCallBudget(n)
	wrapped := make([]Tool, len(tools))
	for i, t := range tools {
		wrapped[i] = b.Wrap(t)
	}
	r, err := NewRegistry(wrapped...)
	if err != nil {
		return nil, nil, err
	}
	return r, b, nil
}

type limited struct {
	t Tool
	b *CallBudget
}

func (l *limited) Spec() llm.ToolSpec { return l.t.Spec() }

func (l *limited) Call(ctx context.Context, args json.RawMessage) (string, error) {
	if l.b.used.Add(1) > l.b.max {
		return "", fmt.Errorf("%w: %w: %s refused: all %d tool calls allowed to this agent are used; "+
			"continue with the data already gathered", ErrBadArgs, ErrCallLimit, l.t.Spec().Name, l.b.max)
	}
	return l.t.Call(ctx, args)
}
