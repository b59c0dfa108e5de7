package tool

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestLimit(t *testing.T) {
	inner := &countingTool{name: "facts"}
	l := Limit(inner, 5)
	for i := range 5 {
		if _, err := l.Call(context.Background(), json.RawMessage(`{}`)); err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
	}
	_, err := l.Call(context.Background(), json.RawMessage(`{}`))
	if !errors.Is(err, ErrCallLimit) || !errors.Is(err, ErrBadArgs) {
		t.Fatalf("6th call err = %v, want ErrCallLimit wrapping ErrBadArgs", err)
	}
	if !strings.Contains(err.Error(), "all 5 tool calls") {
		t.Errorf("error does not say the limit: %v", err)
	}
	if inner.calls.Load() != 5 {
		t.Errorf("tool ran %d times, want 5", inner.calls.Load())
	}
}

func TestLimitedRegistrySharesBudget(t *testing.T) {
	a, b := &countingTool{name: "a"}, &countingTool{name: "b"}
	bull, budget, err := LimitedRegistry(3, a, b)
	if err != nil {
		t.Fatal(err)
	}
	bear, _, _ := LimitedRegistry(3, a, b)
	ctx := context.Background()
	for _, name := range []string{"a", "b", "a"} {
		if _, err := bull.Call(ctx, name, nil); err != nil {
			t.Fatal(err)
		}
	}
	if budget.Remaining() != 0 || budget.Used() != 3 {
		t.Errorf("budget used %d, remaining %d", budget.Used(), budget.Remaining())
	}
	if _, err := bull.Call(ctx, "b", nil); !errors.Is(err, ErrCallLimit) {
		t.Errorf("4th call across tools: err = %v, want ErrCallLimit", err)
	}
	if _, err := bear.Call(ctx, "b", nil); err != nil {
		t.Errorf("another agent's budget was drawn on: %v", err)
	}
}
