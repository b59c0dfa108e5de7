package app

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/setup"
	"github.com/parleyhq/parley/internal/store/memstore"
)

// TestResolveIDAmbiguous: a prefix that matches several debates is refused
// with the candidates in columns, their topics made safe for a terminal
// (a topic is untrusted text); a unique prefix, in any case, resolves.
func TestResolveIDAmbiguous(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	defer store.Close()
	for id, c := range map[string]debate.Created{
		"DEB-ab000001": {Format: "perspectives", Topic: "Redis or PostgreSQL?\x1b]0;pwned\x07"},
		"DEB-ab000002": {Format: "crux", Topic: "Is Bitcoin digital gold?"},
		"DEB-cd000003": {Format: "bullbear", Topic: "NVDA"},
	} {
		e, err := debate.NewEvent(id, time.Now(), c)
		if err != nil {
			t.Fatal(err)
		}
		e.Seq = 1
		if _, err := store.Append(ctx, id, e); err != nil {
			t.Fatal(err)
		}
	}
	if id, err := ResolveID(ctx, store, "cd"); err != nil || id != "DEB-cd000003" {
		t.Fatalf("unique prefix: %q %v", id, err)
	}
	_, err := ResolveID(ctx, store, "deb-AB")
	var ie *setup.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("ambiguous prefix: %v, want an input error", err)
	}
	msg := err.Error()
	if strings.ContainsAny(msg, "\x1b\x07") {
		t.Errorf("a topic's control characters reach the terminal: %q", msg)
	}
	var cols []int
	for _, l := range strings.Split(msg, "\n")[1:] {
		cols = append(cols, strings.Index(l, "Redis")+strings.Index(l, "Is Bitcoin")+1)
	}
	if len(cols) != 2 || cols[0] != cols[1] || cols[0] <= 0 {
		t.Errorf("the topics do not start in one column (%v):\n%s", cols, msg)
	}
}
