package app

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/store/memstore"
)

// TestMatchIDs: what the user typed matches an id's start with or without
// "DEB-", in any case; "D", "DEB" and the like, the start of "DEB-" itself,
// match every id (and are hex digits too).
func TestMatchIDs(t *testing.T) {
	ctx := context.Background()
	store := memstore.New()
	t.Cleanup(func() { store.Close() })
	ids := []string{"DEB-0a000001", "DEB-deb00002", "DEB-d0000003"}
	for i, id := range ids {
		e, err := debate.NewEvent(id, time.Unix(int64(1000+i), 0), debate.Created{Format: "bullbear", Topic: "t", Limits: debate.DefaultLimits()})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := store.Append(ctx, id, e); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		typed string
		want  []string
	}{
		{"DEB", ids}, {"deb", ids}, {"D", ids}, {"de", ids}, {"DEB-", ids},
		{"DEB-d", []string{"DEB-deb00002", "DEB-d0000003"}},
		{"deb0", []string{"DEB-deb00002"}},
		{"0A", []string{"DEB-0a000001"}},
		{"DEB-0a", []string{"DEB-0a000001"}},
		{"x", nil},
	} {
		sums, err := MatchIDs(ctx, store, tc.typed)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range sums {
			got = append(got, s.ID)
		}
		slices.Sort(got)
		want := slices.Sorted(slices.Values(tc.want))
		if !slices.Equal(got, want) {
			t.Errorf("MatchIDs(%q) = %v, want %v", tc.typed, got, want)
		}
	}
}
