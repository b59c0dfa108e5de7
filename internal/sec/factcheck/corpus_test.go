package factcheck

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/parleyhq/parley/internal/sec/snapshot"
	"github.com/parleyhq/parley/internal/sec/xbrl"
)

var tablesOnce = sync.OnceValues(func() (map[string]*Table, error) {
	snap := snapshot.New()
	out := map[string]*Table{}
	for _, tk := range []string{"NVDA", "AAPL", "GOOGL"} {
		co, err := snap.Lookup(context.Background(), tk)
		if err != nil {
			return nil, err
		}
		raw, err := snap.CompanyFacts(context.Background(), co.CIK)
		if err != nil {
			return nil, err
		}
		cf, err := xbrl.Parse(bytes.NewReader(raw.Body))
		if err != nil {
			return nil, err
		}
		// The industry code as a debate reads it: from the submissions,
		// which the snapshot lacks for some companies (SIC 0, as offline).
		sic := 0
		if subs, err := snap.Submissions(context.Background(), co.CIK); err == nil {
			sic, _ = strconv.Atoi(subs.SIC)
		}
		if out[tk], err = BuildTable(cf, tk, 0, sic); err != nil {
			return nil, err
		}
	}
	return out, nil
})

func tables(t testing.TB) map[string]*Table {
	t.Helper()
	ts, err := tablesOnce()
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

type labelled struct{ label, ticker, cause, text string }

func loadCorpus(t *testing.T, path string) []labelled {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []labelled
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		p := strings.SplitN(line, "\t", 4)
		if len(p) != 4 || (p[0] != "ok" && p[0] != "wrong") {
			t.Fatalf("%s: bad line %q", path, line)
		}
		out = append(out, labelled{p[0], p[1], p[2], p[3]})
	}
	return out
}

// score runs the checker on a labelled corpus: recall on the sentences with
// a wrong figure (caught when a figure is corrected) and false positives on
// the sentences whose figures are all right (any figure corrected).
func score(t *testing.T, path string) (recall float64, falsePos, wrong, right int) {
	ts := tables(t)
	caught := 0
	for _, s := range loadCorpus(t, path) {
		fs := ts[s.ticker].Check(s.text)
		corrected := false
		for _, f := range fs {
			if f.Status == Corrected {
				corrected = true
			}
		}
		switch s.label {
		case "wrong":
			wrong++
			if corrected {
				caught++
			} else {
				t.Logf("missed (%s) %s: %q → %s", s.cause, s.ticker, s.text, describe(fs))
			}
		case "ok":
			right++
			if corrected {
				falsePos++
				t.Logf("false positive %s: %q → %s", s.ticker, s.text, describe(fs))
			}
		}
	}
	return float64(caught) / float64(max(wrong, 1)), falsePos, wrong, right
}

func describe(fs []Finding) string {
	var parts []string
	for _, f := range fs {
		parts = append(parts, string(f.Status)+" "+f.Text+" "+string(f.Metric)+" "+f.Period.String()+" "+f.Reason)
	}
	return strings.Join(parts, " | ")
}

// TestCorpus: the checker on the labelled corpus catches at least 98% of
// the wrong figures and flags no right one.
func TestCorpus(t *testing.T) {
	recall, fp, wrong, right := score(t, "testdata/corpus.tsv")
	t.Logf("corpus: %d sentences with a wrong figure, recall %.1f%%; %d right, %d false positives", wrong, 100*recall, right, fp)
	if recall < 0.98 || fp > 0 {
		t.Errorf("recall %.1f%% (want ≥ 98%%), false positives %d (want 0)", 100*recall, fp)
	}
}

// TestHeldOut reports the same on sentences the tuning never looked at.
func TestHeldOut(t *testing.T) {
	recall, fp, wrong, right := score(t, "testdata/heldout.tsv")
	t.Logf("held out: %d sentences with a wrong figure, recall %.1f%%; %d right, %d false positives", wrong, 100*recall, right, fp)
	if recall < 0.9 || fp > 1 {
		t.Errorf("recall %.1f%%, false positives %d on the held-out sentences", 100*recall, fp)
	}
}

// TestRightFiguresAreVerified: on the right sentences, nearly every figure
// is verified against the filings, not just left unflagged.
func TestRightFiguresAreVerified(t *testing.T) {
	ts := tables(t)
	n := map[Status]int{}
	for _, s := range loadCorpus(t, "testdata/corpus.tsv") {
		if s.label != "ok" {
			continue
		}
		for _, f := range ts[s.ticker].Check(s.text) {
			n[f.Status]++
			if f.Status == Unverified {
				t.Logf("unverified %s: %q (%s)", s.ticker, f.Text, f.Reason)
			}
		}
	}
	t.Logf("right sentences: %v", n)
	if total := n[Verified] + n[Unverified]; n[Verified] < total*9/10 {
		t.Errorf("only %d of %d checkable figures verified", n[Verified], total)
	}
}

func TestClaims(t *testing.T) {
	nv := tables(t)["NVDA"]
	for _, tc := range []struct {
		c    Claim
		want Status
		why  string
	}{
		{Claim{Metric: "revenue", Period: "FY2026", Value: "215.9", Scale: "billion"}, Verified, ""},
		{Claim{Metric: "revenue", Period: "FY2025", Value: "215.9", Scale: "billion"}, Corrected, "wrong period"},
		{Claim{Metric: "revenue_growth", Period: "FY2026", Value: "65.5", Direction: "down"}, Corrected, "decline"},
		{Claim{Metric: "eps_diluted", Period: "FY2026", Value: "4.90"}, Verified, ""},
		{Claim{Metric: "net_income", Period: "Q3 FY2026", Value: "31.9", Scale: "billion"}, Verified, ""},
		{Claim{Metric: "net_income", Period: "Q3 FY2026", Value: "31.9", Scale: "million"}, Corrected, "scale"},
		{Claim{Metric: "market_cap", Period: "FY2026", Value: "4"}, Unverified, "unknown metric"},
		{Claim{Metric: "revenue", Period: "next year", Value: "300"}, Unverified, "period"},
	} {
		f := nv.CheckClaim(tc.c)
		if f.Status != tc.want || !strings.Contains(f.Reason, tc.why) {
			t.Errorf("%+v: %s (%s), want %s (%s)", tc.c, f.Status, f.Reason, tc.want, tc.why)
		}
	}
}
