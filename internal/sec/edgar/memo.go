package edgar

import (
	"context"
	"sync"
	"time"
)

// Memo remembers the submissions and company facts a Source returned, for
// a short while and a few companies, so that the steps of one debate do
// not fetch a company's data again: its setup reads the facts, then the
// data-only agents and the research tools read them, each through a Source
// of its own. NVDA's companyfacts are 4 MB, and every request counts
// against the SEC's limit. The data change when a company files, a few
// times a quarter, so an answer some minutes old is as good as a new one.
// One Memo serves a process (setup.Env carries it); it is safe for
// concurrent use. Errors are not remembered.
type Memo struct {
	ttl time.Duration
	max int
	now func() time.Time

	mu      sync.Mutex
	entries map[memoKey]memoEntry
}

type memoKey struct {
	kind string // "submissions" or "facts"
	cik  CIK
}

type memoEntry struct {
	at    time.Time
	subs  *Submissions
	facts *Raw
}

// Memo defaults: long enough for a debate's setup and first turns, short
// enough that a long-running server sees a new filing the same day; a few
// companies, as a batch runs several at once (NVDA's facts are 4 MB).
const (
	MemoTTL = 10 * time.Minute
	MemoMax = 8
)

// NewMemo returns a Memo keeping answers for ttl, at most max companies'
// worth of each kind (the oldest go first); zero values take MemoTTL and
// MemoMax, a nil now time.Now.
func NewMemo(ttl time.Duration, max int, now func() time.Time) *Memo {
	if ttl <= 0 {
		ttl = MemoTTL
	}
	if max <= 0 {
		max = MemoMax
	}
	if now == nil {
		now = time.Now
	}
	return &Memo{ttl: ttl, max: max, now: now, entries: map[memoKey]memoEntry{}}
}

// Wrap returns src answering Submissions and CompanyFacts from the memo
// when it can; the rest passes through. A nil Memo returns src. Callers
// must not modify what the memo returns (every Source's answers are read
// only by convention): the same value serves them all.
func (m *Memo) Wrap(src Source) Source {
	if m == nil {
		return src
	}
	return &memoSource{Source: src, m: m}
}

func (m *Memo) get(k memoKey) (memoEntry, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[k]
	if ok && m.now().Sub(e.at) >= m.ttl {
		delete(m.entries, k)
		ok = false
	}
	return e, ok
}

func (m *Memo) put(k memoKey, e memoEntry) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e.at = m.now()
	m.entries[k] = e
	n, oldest := 0, memoKey{}
	for key, v := range m.entries {
		if key.kind != k.kind {
			continue
		}
		if n++; oldest == (memoKey{}) || v.at.Before(m.entries[oldest].at) {
			oldest = key
		}
	}
	if n > m.max {
		delete(m.entries, oldest)
	}
}

type memoSource struct {
	Source
	m *Memo
}

func (s *memoSource) Submissions(ctx context.Context, cik CIK) (*Submissions, error) {
	k := memoKey{"submissions", cik}
	if e, ok := s.m.get(k); ok {
		return e.subs, nil
	}
	subs, err := s.Source.Submissions(ctx, cik)
	if err == nil {
		s.m.put(k, memoEntry{subs: subs})
	}
	return subs, err
}

func (s *memoSource) CompanyFacts(ctx context.Context, cik CIK) (*Raw, error) {
	k := memoKey{"facts", cik}
	if e, ok := s.m.get(k); ok {
		return e.facts, nil
	}
	raw, err := s.Source.CompanyFacts(ctx, cik)
	if err == nil {
		s.m.put(k, memoEntry{facts: raw})
	}
	return raw, err
}

// Documents passes the lister through, so that wrapping keeps it.
func (s *memoSource) Documents(cik CIK) []Filing {
	if l, ok := s.Source.(DocumentLister); ok {
		return l.Documents(cik)
	}
	return nil
}
