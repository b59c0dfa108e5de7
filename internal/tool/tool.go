// Package tool holds the registry of tools that agents may call (SEC filings,
// XBRL facts, ratios, frameworks, ...), and the dated cache they share.
//
// The registry is explicit: a command builds one with the tools a debate may use.
// There is no global registration.
package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/parleyhq/parley/internal/llm"
)

// Tool is one callable capability.
//
// Contract: Call is safe for concurrent use, returns a text result meant for a
// model to read (JSON or prose), and returns an error only for failures the
// model cannot fix by changing its arguments; bad arguments are reported as an
// error wrapping ErrBadArgs so that the runner can hand the message back to the
// model as a tool error.
type Tool interface {
	Spec() llm.ToolSpec
	Call(ctx context.Context, args json.RawMessage) (string, error)
}

// ErrBadArgs marks an error the model caused and can fix.
var ErrBadArgs = fmt.Errorf("bad tool arguments")

// Registry is a fixed set of tools, looked up by name.
type Registry struct {
	tools map[string]Tool
}

// NewRegistry returns a registry of the given tools. Names must be unique.
func NewRegistry(tools ...Tool) (*Registry, error) {
	r := &Registry{tools: make(map[string]Tool, len(tools))}
	for _, t := range tools {
		name := t.Spec().Name
		if _, dup := r.tools[name]; dup {
			return nil, fmt.Errorf("tool %q registered twice", name)
		}
		r.tools[name] = t
	}
	return r, nil
}

// Specs lists the tools' specifications, sorted by name so that requests (and
// therefore prompt caches) are stable.
func (r *Registry) Specs() []llm.ToolSpec {
	if r == nil {
		return nil
	}
	specs := make([]llm.ToolSpec, 0, len(r.tools))
	for _, t := range r.tools {
		specs = append(specs, t.Spec())
	}
	sort.Slice(specs, func(i, j int) bool { return specs[i].Name < specs[j].Name })
	return specs
}

// Call runs the named tool.
func (r *Registry) Call(ctx context.Context, name string, args json.RawMessage) (string, error) {
	if r == nil {
		return "", fmt.Errorf("%w: no tools are available", ErrBadArgs)
	}
	t, ok := r.tools[name]
	if !ok {
		return "", fmt.Errorf("%w: unknown tool %q", ErrBadArgs, name)
	}
	return t.Call(ctx, args)
}
