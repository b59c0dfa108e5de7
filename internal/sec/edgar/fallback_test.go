package edgar

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// stubSource answers CompanyFacts with a fixed body or error and counts calls.
type stubSource struct {
	body  string
	err   error
	calls int
	snap  bool
}

func (s *stubSource) Lookup(ctx context.Context, ticker string) (Company, error) {
	s.calls++
	return Company{CIK: 1, Ticker: ticker}, s.err
}

func (s *stubSource) Submissions(ctx context.Context, cik CIK) (*Submissions, error) {
	s.calls++
	if s.err != nil {
		return nil, s.err
	}
	return &Submissions{CIK: cik, Provenance: s.prov()}, nil
}

func (s *stubSource) CompanyFacts(ctx context.Context, cik CIK) (*Raw, error) {
	s.calls++
	if s.err != nil {
		return nil, s.err
	}
	return &Raw{Body: []byte(s.body), Provenance: s.prov()}, nil
}

func (s *stubSource) Document(ctx context.Context, cik CIK, acc, name string) (*Raw, error) {
	s.calls++
	if s.snap {
		return nil, fmt.Errorf("%w: no documents offline", ErrNotAvailable)
	}
	return s.CompanyFacts(ctx, cik)
}

func (s *stubSource) prov() Provenance {
	if s.snap {
		return Provenance{Origin: "offline snapshot", Snapshot: true, Retrieved: time.Date(2026, 3, 25, 0, 0, 0, 0, time.UTC)}
	}
	return Provenance{Origin: "SEC EDGAR"}
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestFallbackUsesOnlineWhenItWorks(t *testing.T) {
	on, off := &stubSource{body: "live"}, &stubSource{body: "snap", snap: true}
	f := NewFallback(on, off, quietLogger())
	r, err := f.CompanyFacts(context.Background(), 1)
	if err != nil || string(r.Body) != "live" || off.calls != 0 {
		t.Fatalf("got %v, %v (offline calls %d); want live data", r, err, off.calls)
	}
}

func TestFallbackSwitchesAndLabels(t *testing.T) {
	on := &stubSource{err: fmt.Errorf("fetch: %w: connection refused", ErrUnreachable)}
	off := &stubSource{body: "snap", snap: true}
	f := NewFallback(on, off, quietLogger())
	ctx := context.Background()
	r, err := f.CompanyFacts(ctx, 1)
	if err != nil || string(r.Body) != "snap" {
		t.Fatalf("got %v, %v; want snapshot data", r, err)
	}
	label := r.Provenance.Label()
	if !strings.Contains(label, "offline snapshot recorded 2026-03-25") || !strings.Contains(label, "connection refused") {
		t.Errorf("label = %q; want it to say snapshot, its date and why", label)
	}
	if offline, why := f.Offline(); !offline || !strings.Contains(why, "connection refused") {
		t.Errorf("Offline() = %v, %q", offline, why)
	}
	// Once offline, the online source is not tried again.
	if _, err := f.Submissions(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if on.calls != 1 {
		t.Errorf("online source called %d times after failing, want 1", on.calls)
	}
	// What the snapshot lacks is reported, with the reason we are offline.
	_, err = f.Document(ctx, 1, "0000000001-26-000001", "x.htm")
	if !errors.Is(err, ErrNotAvailable) || !strings.Contains(err.Error(), "offline snapshot") {
		t.Errorf("Document err = %v", err)
	}
}

func TestFallbackPassesOtherErrors(t *testing.T) {
	on := &stubSource{err: fmt.Errorf("%w: GET x", ErrNotFound)}
	off := &stubSource{body: "snap", snap: true}
	f := NewFallback(on, off, quietLogger())
	if _, err := f.CompanyFacts(context.Background(), 1); !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v, want the online ErrNotFound", err)
	}
	if off.calls != 0 {
		t.Error("fell back on a not-found error")
	}
}

// A ticker the snapshot lacks, once EDGAR could not be reached, is refused
// with the reason EDGAR was not used, not only with the snapshot's advice.
func TestFallbackLookupSaysWhyOffline(t *testing.T) {
	on := &stubSource{err: fmt.Errorf("fetch ticker list: %w: no such host", ErrUnreachable)}
	off := &stubSource{err: fmt.Errorf("%w: MSFT; go online", ErrNotAvailable)}
	f := NewFallback(on, off, quietLogger())
	_, err := f.Lookup(context.Background(), "MSFT")
	if !errors.Is(err, ErrNotAvailable) {
		t.Fatalf("err = %v; want the snapshot's ErrNotAvailable", err)
	}
	if !strings.Contains(err.Error(), "EDGAR could not be used") || !strings.Contains(err.Error(), "no such host") {
		t.Errorf("err = %q; want it to say EDGAR could not be used, and why", err)
	}
	// A ticker the snapshot has is answered from it, without an error.
	off.err = nil
	if c, err := f.Lookup(context.Background(), "NVDA"); err != nil || c.Ticker != "NVDA" {
		t.Errorf("Lookup(NVDA) = %v, %v; want the snapshot's company", c, err)
	}
}
