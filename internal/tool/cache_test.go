package tool

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/llm"
)

// countingTool answers with its call count; it fails when args ask it to.
type countingTool struct {
	name  string
	calls atomic.Int64
	gate  chan struct{} // if set, calls wait for it
}

func (c *countingTool) Spec() llm.ToolSpec {
	return llm.ToolSpec{Name: c.name, Description: "test", Schema: json.RawMessage(`{"type":"object"}`)}
}

func (c *countingTool) Call(ctx context.Context, args json.RawMessage) (string, error) {
	n := c.calls.Add(1)
	if c.gate != nil {
		<-c.gate
	}
	if strings.Contains(string(args), "fail") {
		return "", fmt.Errorf("%w: asked to fail", ErrBadArgs)
	}
	return fmt.Sprintf("result %d", n), nil
}

// call runs a tool and reports whether the cache answered.
func call(t *testing.T, tl Tool, args string) (string, bool) {
	t.Helper()
	var hit bool
	out, err := tl.Call(WithCacheReport(context.Background(), &hit), json.RawMessage(args))
	if err != nil {
		t.Fatal(err)
	}
	return out, hit
}

func TestCachedKeyedByNewYorkDate(t *testing.T) {
	for _, tc := range []struct {
		name          string
		before, after time.Time // one second either side of New York midnight
		dayBefore     string    // New York dates of before and after
		dayAfter      string
	}{
		{"winter (EST, UTC-5)", time.Date(2026, 1, 15, 4, 59, 59, 0, time.UTC), time.Date(2026, 1, 15, 5, 0, 0, 0, time.UTC), "2026-01-14", "2026-01-15"},
		{"summer (EDT, UTC-4)", time.Date(2026, 7, 9, 3, 59, 59, 0, time.UTC), time.Date(2026, 7, 9, 4, 0, 0, 0, time.UTC), "2026-07-08", "2026-07-09"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inner := &countingTool{name: "facts"}
			now := tc.before
			ct := Cached(inner, NewMemoryCache(), func() time.Time { return now })

			if out, hit := call(t, ct, `{"a":1}`); hit || out != "result 1" {
				t.Fatalf("first call: %q hit=%v", out, hit)
			}
			if out, hit := call(t, ct, `{"a":1}`); !hit || out != "result 1" {
				t.Fatalf("same day: %q hit=%v, want cached result 1", out, hit)
			}
			now = tc.after
			if out, hit := call(t, ct, `{"a":1}`); hit || out != "result 2" {
				t.Fatalf("after New York midnight: %q hit=%v, want a fresh call", out, hit)
			}
			if k, _ := ct.Key(json.RawMessage(`{}`), tc.before); k != "facts\n"+tc.dayBefore+"\n{}" {
				t.Errorf("key before midnight = %q, want date %s", k, tc.dayBefore)
			}
			if k, _ := ct.Key(json.RawMessage(`{}`), tc.after); k != "facts\n"+tc.dayAfter+"\n{}" {
				t.Errorf("key after midnight = %q, want date %s", k, tc.dayAfter)
			}
			if s := ct.Stats(); s.Hits != 1 || s.Misses != 2 {
				t.Errorf("stats = %+v, want 1 hit, 2 misses", s)
			}
		})
	}
}

func TestCachedKeyDateIsNewYorks(t *testing.T) {
	ct := Cached(&countingTool{name: "x"}, NewMemoryCache(), nil)
	// 03:00 UTC on 15 January is 22:00 on the 14th in New York.
	k, ok := ct.Key(json.RawMessage(`{}`), time.Date(2026, 1, 15, 3, 0, 0, 0, time.UTC))
	if !ok || k != "x\n2026-01-14\n{}" {
		t.Errorf("key = %q, want the New York date 2026-01-14", k)
	}
}

func TestCachedCanonicalArgs(t *testing.T) {
	inner := &countingTool{name: "facts"}
	ct := Cached(inner, NewMemoryCache(), nil)
	call(t, ct, `{"b":[1,2],"a":{"y":1,"x":2}}`)
	if _, hit := call(t, ct, " {\"a\": {\"x\":2, \"y\":1},\n \"b\": [1, 2]} "); !hit {
		t.Error("reordered, respaced arguments missed the cache")
	}
	if _, hit := call(t, ct, `{"b":[2,1],"a":{"y":1,"x":2}}`); hit {
		t.Error("different arguments hit the cache")
	}
	call(t, ct, ``)
	if _, hit := call(t, ct, `null`); !hit {
		t.Error("null and empty arguments should share the key of {}")
	}
}

func TestCachedDoesNotCacheErrors(t *testing.T) {
	inner := &countingTool{name: "facts"}
	ct := Cached(inner, NewMemoryCache(), nil)
	for range 2 {
		if _, err := ct.Call(context.Background(), json.RawMessage(`{"x":"fail"}`)); !errors.Is(err, ErrBadArgs) {
			t.Fatalf("err = %v", err)
		}
	}
	if inner.calls.Load() != 2 {
		t.Errorf("failing call ran %d times, want 2 (errors must not be cached)", inner.calls.Load())
	}
	// Invalid JSON is passed through, uncached.
	if _, err := ct.Call(context.Background(), json.RawMessage(`{"x":`)); err != nil {
		t.Errorf("invalid JSON: %v", err)
	}
}

func TestCachedConcurrentCallsShareOneRun(t *testing.T) {
	inner := &countingTool{name: "facts", gate: make(chan struct{})}
	ct := Cached(inner, NewMemoryCache(), nil)
	const n = 8
	var wg sync.WaitGroup
	outs := make([]string, n)
	hits := make([]bool, n)
	for i := range n {
		wg.Go(func() {
			var err error
			outs[i], err = ct.Call(WithCacheReport(context.Background(), &hits[i]), json.RawMessage(`{}`))
			if err != nil {
				t.Error(err)
			}
		})
	}
	for inner.calls.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	time.Sleep(20 * time.Millisecond) // let the others reach the wait
	close(inner.gate)
	wg.Wait()
	nhits := 0
	for i := range n {
		if outs[i] != "result 1" {
			t.Errorf("call %d got %q", i, outs[i])
		}
		if hits[i] {
			nhits++
		}
	}
	if c := inner.calls.Load(); c != 1 {
		t.Errorf("tool ran %d times for %d identical concurrent calls, want 1", c, n)
	}
	if nhits != n-1 {
		t.Errorf("%d calls reported a cache hit, want %d", nhits, n-1)
	}
}

func TestFileCache(t *testing.T) {
	ctx := context.Background()
	dir := filepath.Join(t.TempDir(), "tools")
	c, err := NewFileCache(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := c.Get(ctx, "k"); ok || err != nil {
		t.Fatalf("empty cache Get = %v, %v", ok, err)
	}
	if err := c.Put(ctx, "k", "v1"); err != nil {
		t.Fatal(err)
	}
	if err := c.Put(ctx, "k", "v2"); err != nil {
		t.Fatal(err)
	}
	// A second instance on the same directory (another process) sees it.
	c2, _ := NewFileCache(dir)
	if v, ok, err := c2.Get(ctx, "k"); v != "v2" || !ok || err != nil {
		t.Errorf("Get = %q, %v, %v; want v2", v, ok, err)
	}
	// Through the decorator, across instances.
	now := func() time.Time { return time.Date(2026, 3, 5, 15, 0, 0, 0, time.UTC) }
	inner := &countingTool{name: "facts"}
	call(t, Cached(inner, c, now), `{"q":1}`)
	if out, hit := call(t, Cached(inner, c2, now), `{"q":1}`); !hit || out != "result 1" {
		t.Errorf("file cache across instances: %q hit=%v", out, hit)
	}
	if n, err := c.Prune(ctx, time.Now().Add(time.Hour)); err != nil || n != 2 {
		t.Errorf("Prune = %d, %v; want 2 entries removed", n, err)
	}
	if _, ok, _ := c.Get(ctx, "k"); ok {
		t.Error("entry survived Prune")
	}
}

func TestDefaultCacheDir(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", "/tmp/xdg")
	t.Setenv("HOME", "/tmp/home")
	d, err := DefaultCacheDir()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(d, filepath.Join("parley", "tools")) {
		t.Errorf("DefaultCacheDir = %q", d)
	}
}
