package app

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/setup"
)

// TestOptionRangeIsSetups: the range an Int option declares (Min, Max),
// which the dashboard's form offers, is the range its format's Setup
// takes, for every shipped format: Setup accepts Min and Max and refuses
// Min-1 and Max+1 as bad input naming the option. Setup checks the value
// with its own message, so nothing else ties the two together; a form
// offering a value Setup refuses, or hiding one it takes, fails here.
func TestOptionRangeIsSetups(t *testing.T) {
	ctx := context.Background()
	// No network, no model: a topic no format looks up (not a ticker),
	// and an environment that configures nothing.
	env := setup.Env{Getenv: func(string) string { return "" }, Now: time.Now, Notice: io.Discard}
	fs := DefaultFormats()
	ranged := 0
	for _, name := range fs.Names() {
		f, err := fs.Get(name)
		if err != nil {
			t.Fatal(err)
		}
		starter, ok := f.(setup.Starter)
		if !ok {
			continue
		}
		for _, o := range setup.OptionsOf(f) {
			if o.Kind != setup.Int || (o.Min == 0 && o.Max == 0) {
				continue
			}
			ranged++
			for _, c := range []struct {
				v  int
				ok bool
			}{{o.Min, true}, {o.Max, true}, {o.Min - 1, false}, {o.Max + 1, false}} {
				req := &setup.Request{Topic: "Should we use Redis or PostgreSQL for caching?", Format: name, Values: setup.Values{o.Name: c.v}}
				req.Given = req.Has
				req.Defaults(setup.OptionsOf(f))
				_, err := starter.Setup(ctx, env, req)
				var in *setup.InputError
				switch {
				case c.ok && err != nil:
					t.Errorf("%s --%s %d: its range is %d-%d, and Setup refuses it: %v", name, o.Name, c.v, o.Min, o.Max, err)
				case !c.ok && err == nil:
					t.Errorf("%s --%s %d: its range is %d-%d, and Setup takes it", name, o.Name, c.v, o.Min, o.Max)
				case !c.ok && !errors.As(err, &in):
					t.Errorf("%s --%s %d: refused with %T (%v), want bad input (*setup.InputError)", name, o.Name, c.v, err, err)
				case !c.ok && !strings.Contains(err.Error(), "--"+o.Name+" "+strconv.Itoa(c.v)):
					t.Errorf("%s --%s %d: refused with %q, which does not name the option and the value", name, o.Name, c.v, err)
				}
			}
		}
	}
	if ranged == 0 {
		t.Fatal("no shipped format declares an Int option with a range: nothing was checked")
	}
}
