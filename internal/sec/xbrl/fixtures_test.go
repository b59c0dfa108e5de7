package xbrl

import (
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// fixtureFile names the gzipped companyfacts files in testdata (see
// testdata/SOURCES.txt).
func fixtureFile(ticker string) string {
	switch ticker {
	case "AAPL":
		return "AAPL_companyfacts_CIK0000320193.json.gz"
	case "NVDA":
		return "NVDA_companyfacts_CIK0001045810.json.gz"
	case "GOOGL":
		return "GOOGL_companyfacts_CIK0001652044.json.gz"
	}
	panic("no fixture for " + ticker)
}

// fixtureBytes returns the decompressed companyfacts JSON for ticker.
func fixtureBytes(tb testing.TB, ticker string) []byte {
	tb.Helper()
	f, err := os.Open(filepath.Join("testdata", fixtureFile(ticker)))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// fixture parses the companyfacts fixture for ticker.
func fixture(tb testing.TB, ticker string) *CompanyFacts {
	tb.Helper()
	cf, err := Parse(bytes.NewReader(fixtureBytes(tb, ticker)))
	if err != nil {
		tb.Fatalf("Parse(%s): %v", ticker, err)
	}
	return cf
}
