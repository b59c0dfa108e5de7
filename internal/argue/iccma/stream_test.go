package iccma

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/argue"
)

// firstWrite records what Run writes and cancels its context at the first
// write, as a user would press Ctrl+C on seeing output.
type firstWrite struct {
	mu     sync.Mutex
	out    strings.Builder
	cancel context.CancelFunc
}

func (w *firstWrite) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.cancel()
	return w.out.Write(p)
}

// pairsAF is n pairs of arguments attacking each other: 2^n stable
// extensions, more than any search lists in a test's time.
func pairsAF(n int, apx bool) string {
	var b strings.Builder
	if !apx {
		fmt.Fprintf(&b, "p af %d\n", 2*n)
	}
	for i := range 2 * n {
		if apx {
			fmt.Fprintf(&b, "arg(a%d).\n", i)
		}
	}
	for i := range n {
		if apx {
			fmt.Fprintf(&b, "att(a%d,a%d).\natt(a%d,a%d).\n", 2*i, 2*i+1, 2*i+1, 2*i)
		} else {
			fmt.Fprintf(&b, "%d %d\n%d %d\n", 2*i+1, 2*i+2, 2*i+2, 2*i+1)
		}
	}
	return b.String()
}

// TestEnumerationStreams: EE prints extensions while the search goes on,
// past a bounded number held to print sorted, so that neither the wait for
// the first line nor memory grow with the number of extensions. Cut off,
// what was printed ends at an extension's end, the list is left open (no
// closing bracket), and the error says it is incomplete. Before, EE held
// every extension and printed nothing until the search ended: here never.
func TestEnumerationStreams(t *testing.T) {
	for _, apx := range []bool{false, true} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		w := &firstWrite{cancel: cancel}
		format := map[bool]string{false: "i23", true: "apx"}[apx]
		err := Run(ctx, Options{Problem: "EE-ST", Format: format, Input: strings.NewReader(pairsAF(40, apx))}, w)
		cancel()
		out := w.out.String()
		if !errors.Is(err, argue.ErrCutOff) || !errors.Is(err, ErrIncomplete) || !errors.Is(ctx.Err(), context.Canceled) {
			t.Fatalf("%s: error %v, context %v: want a cut-off after the first write, the list incomplete", format, err, ctx.Err())
		}
		var n int
		if apx {
			if !strings.HasPrefix(out, "[[") || !strings.HasSuffix(out, "]") || strings.HasSuffix(out, "]]") {
				t.Fatalf("%s: output %.80q...%q: want an open list of whole extensions", format, out, out[max(0, len(out)-80):])
			}
			n = strings.Count(out, "[") - 1
		} else {
			for line := range strings.Lines(out) {
				if !strings.HasPrefix(line, "w ") || len(strings.Fields(line)) != 41 || !strings.HasSuffix(line, "\n") {
					t.Fatalf("%s: line %q: want whole extensions of 40 arguments", format, line)
				}
				n++
			}
		}
		if want := fmt.Sprintf("(%d extensions printed", n); !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %q does not say %q", format, err, want)
		}
	}
}
