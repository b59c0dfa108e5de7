package edgar

import (
	"context"
	"errors"
	"testing"
	"time"
)

// countingSource counts the fetches that reach it; fail makes the next
// one fail.
type countingSource struct {
	Source
	facts, subs int
	fail        bool
}

func (s *countingSource) CompanyFacts(_ context.Context, cik CIK) (*Raw, error) {
	s.facts++
	if s.fail {
		s.fail = false
		return nil, ErrUnreachable
	}
	return &Raw{Body: []byte(cik.String())}, nil
}

func (s *countingSource) Submissions(_ context.Context, cik CIK) (*Submissions, error) {
	s.subs++
	return &Submissions{Name: cik.String()}, nil
}

func (s *countingSource) Documents(CIK) []Filing { return []Filing{{Accession: "x"}} }

func TestMemo(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	src := &countingSource{}
	m := NewMemo(10*time.Minute, 2, clock)
	// Two Sources of one memo, as a debate's setup and its data-only
	// agents each build their own.
	a, b := m.Wrap(src), m.Wrap(src)

	first, _ := a.CompanyFacts(ctx, 1)
	second, _ := b.CompanyFacts(ctx, 1)
	if src.facts != 1 || first != second {
		t.Fatalf("facts fetched %d times for two reads within the TTL, want 1", src.facts)
	}
	a.Submissions(ctx, 1)
	b.Submissions(ctx, 1)
	if src.subs != 1 {
		t.Errorf("submissions fetched %d times, want 1", src.subs)
	}
	// Another company is its own entry.
	a.CompanyFacts(ctx, 2)
	if src.facts != 2 {
		t.Errorf("facts of another company: %d fetches, want 2", src.facts)
	}
	// Past the TTL the data are fetched again.
	now = now.Add(10 * time.Minute)
	a.CompanyFacts(ctx, 1)
	if src.facts != 3 {
		t.Errorf("after the TTL: %d fetches, want 3", src.facts)
	}
	// At most two companies: a third evicts the oldest (2, read before 1
	// was read again).
	now = now.Add(time.Minute)
	a.CompanyFacts(ctx, 3)
	a.CompanyFacts(ctx, 1)
	if src.facts != 4 {
		t.Errorf("the newest entries: %d fetches, want 4", src.facts)
	}
	a.CompanyFacts(ctx, 2)
	if src.facts != 5 {
		t.Errorf("the evicted entry: %d fetches, want 5", src.facts)
	}
	// An error is not remembered.
	src.fail = true
	if _, err := a.CompanyFacts(ctx, 9); !errors.Is(err, ErrUnreachable) {
		t.Fatalf("failing source: %v", err)
	}
	if raw, err := a.CompanyFacts(ctx, 9); err != nil || string(raw.Body) != CIK(9).String() {
		t.Errorf("after a failure: %v, want the fetch tried again", err)
	}
	// Wrapping keeps the document lister.
	if l, ok := a.(DocumentLister); !ok || len(l.Documents(1)) != 1 {
		t.Error("the memo hides the wrapped source's document list")
	}
	// No memo: the source itself.
	if (*Memo)(nil).Wrap(src) != Source(src) {
		t.Error("a nil memo wraps the source")
	}
}
