package storetest

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
)

// unstorableIDs are ids no debate can have (debate.ValidID): what a user
// may type or a client send. PostgreSQL refuses the first three in text.
var unstorableIDs = []string{
	"a\x00b",                             // NUL
	"\xff",                               // not UTF-8
	"DEB-\xc3",                           // a cut rune
	"DEB-1\n2",                           // a control character
	"DEB-\x1b[31m",                       // a terminal escape
	strings.Repeat("a", 129),             // over debate.MaxIDLen bytes
	"\xff" + strings.Repeat("\x00", 200), // all of it
}

// testUnstorableIDs checks the contract for an id no debate can have: every
// read, lease and delete answers ErrNotFound (not the database's error),
// creating one is ErrInvalidID, and the store goes on as before. Ids at the
// edge of the rule (non-ASCII, MaxIDLen bytes) are stored.
func (s suite) testUnstorableIDs(t *testing.T) {
	st := s.open(t)
	ctx := t.Context()
	const kept = "kept"
	mustAppend(t, st, kept, created(t, kept, "bullbear", "topic", at(0)))

	for _, id := range append(unstorableIDs, "") {
		notFound := func(what string, err error) {
			t.Helper()
			if !errors.Is(err, debate.ErrNotFound) {
				t.Errorf("%s of id %q: err = %v, want ErrNotFound", what, id, err)
			}
		}
		if id != "" {
			_, err := st.Append(ctx, id, created(t, id, "bullbear", "topic", at(1)))
			if !errors.Is(err, debate.ErrInvalidID) {
				t.Errorf("creating debate %q: err = %v, want ErrInvalidID", id, err)
			}
			_, err = st.Append(ctx, id, note(t, id, at(1), "x"))
			notFound("Append of a note", err)
			_, err = st.Append(ctx, id)
			notFound("empty Append", err)
		}
		_, err := st.Get(ctx, id)
		notFound("Get", err)
		_, err = st.Load(ctx, id, 0)
		notFound("Load", err)
		_, err = st.LoadN(ctx, id, 0, 1)
		notFound("LoadN", err)
		_, err = st.AcquireLease(ctx, id, owner(1), time.Minute, "")
		notFound("AcquireLease", err)
		_, err = st.RenewLease(ctx, id, owner(1).ID, time.Minute)
		if err == nil {
			t.Errorf("RenewLease of id %q: no error", id)
		}
		if err := st.ReleaseLease(ctx, id, owner(1).ID); err != nil && !errors.Is(err, debate.ErrNotFound) {
			t.Errorf("ReleaseLease of id %q: err = %v, want nil or ErrNotFound", id, err)
		}
		notFound("Delete", st.Delete(ctx, id))
		expectEnd(t, subscribe(t, ctx, st, id, 0), debate.ErrNotFound)
	}

	// The store is unharmed: the debate it had is there, alone.
	if _, err := st.Get(ctx, kept); err != nil {
		t.Fatalf("Get %q after the unstorable ids: %v", kept, err)
	}
	list, err := st.List(ctx, debate.ListFilter{})
	if err != nil || len(list) != 1 || list[0].ID != kept {
		t.Fatalf("List after the unstorable ids: %d debates, err %v; want [%s]", len(list), err, kept)
	}

	// At the edges of the rule, ids are stored and read back.
	for i, id := range []string{"débat-✓ 日本", strings.Repeat("é", debate.MaxIDLen/2), strings.Repeat("z", debate.MaxIDLen)} {
		if !debate.ValidID(id) {
			t.Fatalf("ValidID(%q) = false", id)
		}
		mustAppend(t, st, id, created(t, id, "bullbear", "topic", at(2+i)))
		if got, err := st.Get(ctx, id); err != nil || got.ID != id {
			t.Errorf("Get of id %q: %q, %v", id, got.ID, err)
		}
	}
}
