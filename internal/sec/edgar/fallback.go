package edgar

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
)

// Fallback is a Source that asks an online source first and, when EDGAR cannot
// be reached (ErrUnreachable) or refuses us (ErrBlocked), answers from an
// offline one, noting why in the data's Provenance.
//
// Once the online source has failed that way, Fallback stays offline for the
// rest of its life, so that one debate neither waits out the retries again on
// every call nor mixes live and snapshot data.
type Fallback struct {
	online, offline Source
	log             *slog.Logger

	mu     sync.Mutex
	reason string // why we went offline; empty while online
}

var _ Source = (*Fallback)(nil)

// NewFallback returns a Source using online, then offline. A nil logger means
// slog.Default().
func NewFallback(online, offline Source, logger *slog.Logger) *Fallback {
	if logger == nil {
		logger = slog.Default()
	}
	return &Fallback{online: online, offline: offline, log: logger}
}

// Offline reports whether the fallback has switched to the offline source,
// and why.
func (f *Fallback) Offline() (bool, string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.reason != "", f.reason
}

// try runs the online call unless already offline. It reports whether the
// caller should use the offline source, with the note to label data with.
func (f *Fallback) try(ctx context.Context, online func() error) (useOffline bool, note string, err error) {
	f.mu.Lock()
	reason := f.reason
	f.mu.Unlock()
	if reason == "" {
		err = online()
		if err == nil || !(errors.Is(err, ErrUnreachable) || errors.Is(err, ErrBlocked)) {
			return false, "", err
		}
		f.mu.Lock()
		if f.reason == "" {
			f.reason = err.Error()
			f.log.LogAttrs(ctx, slog.LevelWarn, "edgar: online source failed; using the offline snapshot",
				slog.String("error", err.Error()))
		}
		reason = f.reason
		f.mu.Unlock()
	}
	return true, "EDGAR could not be used, so this comes from the offline snapshot: " + reason, nil
}

// Lookup implements Source.
func (f *Fallback) Lookup(ctx context.Context, ticker string) (Company, error) {
	var c Company
	off, _, err := f.try(ctx, func() (err error) { c, err = f.online.Lookup(ctx, ticker); return err })
	if !off {
		return c, err
	}
	// A ticker the snapshot lacks is refused with why EDGAR was not used:
	// the snapshot's own advice ("go online with SEC_USER_AGENT set")
	// alone sends a user who has set it after the wrong fix.
	c, err = f.offline.Lookup(ctx, ticker)
	if err != nil {
		_, reason := f.Offline()
		return c, fmt.Errorf("EDGAR could not be used (%s), and the offline snapshot cannot answer: %w", reason, err)
	}
	return c, nil
}

// Submissions implements Source.
func (f *Fallback) Submissions(ctx context.Context, cik CIK) (*Submissions, error) {
	var s *Submissions
	off, note, err := f.try(ctx, func() (err error) { s, err = f.online.Submissions(ctx, cik); return err })
	if !off {
		return s, err
	}
	s, err = f.offline.Submissions(ctx, cik)
	if err != nil {
		return nil, fmt.Errorf("%s; %w", note, err)
	}
	s.Provenance.Note = joinNote(s.Provenance.Note, note)
	return s, nil
}

// CompanyFacts implements Source.
func (f *Fallback) CompanyFacts(ctx context.Context, cik CIK) (*Raw, error) {
	return f.raw(ctx, func(src Source) (*Raw, error) { return src.CompanyFacts(ctx, cik) })
}

// Document implements Source.
func (f *Fallback) Document(ctx context.Context, cik CIK, accession, name string) (*Raw, error) {
	return f.raw(ctx, func(src Source) (*Raw, error) { return src.Document(ctx, cik, accession, name) })
}

func (f *Fallback) raw(ctx context.Context, get func(Source) (*Raw, error)) (*Raw, error) {
	var r *Raw
	off, note, err := f.try(ctx, func() (err error) { r, err = get(f.online); return err })
	if !off {
		return r, err
	}
	r, err = get(f.offline)
	if err != nil {
		return nil, fmt.Errorf("%s; %w", note, err)
	}
	cp := *r
	cp.Provenance.Note = joinNote(cp.Provenance.Note, note)
	return &cp, nil
}

func joinNote(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
