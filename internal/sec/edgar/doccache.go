package edgar

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// DocumentCache is a Source whose filing documents are kept on disk: a
// filing never changes once accepted, so a 10-K fetched for one debate
// serves every later debate and process without another request to EDGAR.
// Everything else passes through to the wrapped Source. Snapshot answers are
// not cached (they are in the binary already).
type DocumentCache struct {
	Source
	dir string
}

// CacheDocuments wraps src with a document cache in dir ("" means
// os.UserCacheDir()/parley/filings).
func CacheDocuments(src Source, dir string) (*DocumentCache, error) {
	if dir == "" {
		base, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("edgar: filing cache: find the user cache directory (set XDG_CACHE_HOME or HOME): %w", err)
		}
		dir = filepath.Join(base, "parley", "filings")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("edgar: filing cache: %w", err)
	}
	return &DocumentCache{Source: src, dir: dir}, nil
}

// Documents passes the lister through, so that wrapping keeps it.
func (c *DocumentCache) Documents(cik CIK) []Filing {
	if l, ok := c.Source.(DocumentLister); ok {
		return l.Documents(cik)
	}
	return nil
}

type cachedDoc struct {
	Provenance Provenance `json:"provenance"`
	Body       []byte     `json:"body"`
}

func (c *DocumentCache) path(cik CIK, accession, name string) (string, bool) {
	acc := strings.ReplaceAll(strings.TrimSpace(accession), "-", "")
	if len(acc) != 18 || strings.Trim(acc, "0123456789") != "" || name == "" || strings.ContainsAny(name, `/\`) || strings.Contains(name, "..") {
		return "", false
	}
	return filepath.Join(c.dir, cik.String(), acc, name+".json"), true
}

// Document implements Source.
func (c *DocumentCache) Document(ctx context.Context, cik CIK, accession, name string) (*Raw, error) {
	p, ok := c.path(cik, accession, name)
	if !ok {
		return c.Source.Document(ctx, cik, accession, name)
	}
	if b, err := os.ReadFile(p); err == nil {
		var d cachedDoc
		if json.Unmarshal(b, &d) == nil && len(d.Body) > 0 {
			d.Provenance.Note = strings.TrimPrefix(d.Provenance.Note+"; from the local filing cache", "; ")
			return &Raw{Body: d.Body, Provenance: d.Provenance}, nil
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("edgar: filing cache: %w", err)
	}
	raw, err := c.Source.Document(ctx, cik, accession, name)
	if err != nil || raw.Provenance.Snapshot {
		return raw, err
	}
	// A failed write only costs a refetch next time.
	_ = writeAtomic(p, cachedDoc{Provenance: raw.Provenance, Body: raw.Body})
	return raw, nil
}

func writeAtomic(p string, v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return err
	}
	_, werr := f.Write(b)
	if err := errors.Join(werr, f.Close()); err != nil {
		os.Remove(f.Name())
		return err
	}
	if err := os.Rename(f.Name(), p); err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}
