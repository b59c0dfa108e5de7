package cli

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

func TestBatchItems(t *testing.T) {
	file := filepath.Join(t.TempDir(), "list.txt")
	if err := os.WriteFile(file, []byte("aapl\n  # a comment\nMSFT # software\n\n\nNVDA\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := batchItems([]string{"NVDA", " googl "}, file)
	if err != nil {
		t.Fatal(err)
	}
	if want := "NVDA,googl,aapl,MSFT"; strings.Join(got, ",") != want {
		t.Fatalf("items %q, want %s (repeats in any case dropped, comments and blanks skipped)", got, want)
	}
	if _, err := batchItems(nil, ""); err == nil || !strings.Contains(err.Error(), "nothing to debate") {
		t.Fatalf("no items: %v", err)
	}
	if _, err := batchItems(nil, filepath.Join(t.TempDir(), "missing")); err == nil || !strings.Contains(err.Error(), "does not exist: give the path of a file") {
		t.Fatalf("a missing file: %v", err)
	}
	// The file given as an item, as "parley batch watchlist.txt" does, is
	// not debated as a ticker: the error names --file.
	if _, err := batchItems([]string{"NVDA", file}, ""); err == nil || !strings.Contains(err.Error(), "use --file "+file) {
		t.Fatalf("a file given as an item: %v", err)
	}
	if got, err := batchItems([]string{"BRK.B", "list.txt"}, ""); err != nil || len(got) != 2 {
		t.Fatalf("items that are not files here: %q, %v", got, err)
	}
}

// TestBatchFileTopicsKeepTheirHash: in a file of topics a '#' inside a
// word is part of the topic ("C#" was cut to "C"); a comment starts at the
// line's start or after a space. A file that lists nothing says so, not
// to give --file, which was given.
func TestBatchFileTopicsKeepTheirHash(t *testing.T) {
	file := filepath.Join(t.TempDir(), "topics.txt")
	if err := os.WriteFile(file, []byte("# questions\nShould we port the service to C#?\nF# or OCaml for the compiler?  # later\nNVDA\t# core\nissue#42 again\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := batchItems(nil, file)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Should we port the service to C#?|F# or OCaml for the compiler?|NVDA|issue#42 again"; strings.Join(got, "|") != want {
		t.Errorf("items %q, want %q", got, want)
	}
	empty := filepath.Join(t.TempDir(), "empty.txt")
	if err := os.WriteFile(empty, []byte("# nothing yet\n\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := batchItems(nil, empty); err == nil || !strings.Contains(err.Error(), empty+" lists nothing to debate") {
		t.Errorf("a file that lists nothing: %v", err)
	}
}

func TestBatchSummaryFormats(t *testing.T) {
	rows := []*BatchRow{
		{Item: "NVDA", ID: "DEB-1", Status: batchDone, Stance: "LEAN BULL", Score: 6, Conviction: "6/10 because x. Would be 7/10 if y.", CostUSD: 0.0123, Turns: 7, LLMTurns: 5},
		{Item: "=HYPERLINK(\"http://evil\")", Status: batchFailed, Error: "cannot debate \x1b[31m it"},
	}
	var b bytes.Buffer
	if err := writeBatch(&b, rows, "bullbear", &BatchOptions{}); err != nil {
		t.Fatal(err)
	}
	table := b.String()
	for _, want := range []string{"TICKER", "LEAN BULL", "6/10", "$0.0123", "DEB-1", "total cost $0.0123"} {
		if !strings.Contains(table, want) {
			t.Errorf("table lacks %q:\n%s", want, table)
		}
	}
	if strings.Contains(table, "\x1b") {
		t.Errorf("an escape sequence from an error reached the terminal:\n%q", table)
	}
	b.Reset()
	if err := writeBatch(&b, rows, "bullbear", &BatchOptions{CSV: true}); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil || len(recs) != 3 {
		t.Fatalf("csv: %v %v", recs, err)
	}
	if got := strings.Join(recs[1][8:], ","); got != "7,0.012300,,5," {
		t.Errorf("csv turns, cost_usd, error, llm_turns, unpriced_models: %q", got)
	}
	if recs[2][0][0] != '\'' {
		t.Errorf("a cell starting with = is not defused for spreadsheets: %q", recs[2][0])
	}
	if outcome([]byte(`{"synthesis":{"recommendation":"Start in PostgreSQL","confidence":"High"}}`)) != "Start in PostgreSQL (confidence high)" ||
		outcome([]byte(`{"decision":"GO"}`)) != "GO" || outcome([]byte(`{"winner":"PRO"}`)) != "winner: PRO" {
		t.Error("outcome of other formats")
	}
}

// A data-only debate has no model cost and an unpriced model an unknown
// one: neither shows as $0.0000, and the unpriced models are named once,
// under the table.
func TestBatchCosts(t *testing.T) {
	rows := []*BatchRow{
		{Item: "NVDA", ID: "DEB-1", Status: batchDone, Turns: 7},
		{Item: "AAPL", ID: "DEB-2", Status: batchDone, Turns: 9, LLMTurns: 5, Unpriced: []string{"openai/my-model"}},
		{Item: "MSFT", ID: "DEB-3", Status: batchDone, Turns: 9, LLMTurns: 5, CostUSD: 0.5},
	}
	var b bytes.Buffer
	if err := writeBatch(&b, rows[:1], "bullbear", &BatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); !strings.Contains(out, "NVDA  ") || !strings.Contains(out, "no model") || strings.Contains(out, "$") ||
		!strings.HasSuffix(out, "1 debate, no cost (no model used)\n") {
		t.Errorf("data-only batch:\n%s", out)
	}
	b.Reset()
	if err := writeBatch(&b, rows, "bullbear", &BatchOptions{}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"no model", "unknown", "$0.5000", "3 debates, total cost ≥ $0.5000 (no price for openai/my-model)\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("table lacks %q:\n%s", want, out)
		}
	}
	// An item that could not start has no debate to count.
	b.Reset()
	if err := writeBatch(&b, append(rows[:1:1], &BatchRow{Item: "ZZZZ", Status: batchFailed, Error: "unknown ticker"}), "bullbear", &BatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := b.String(); !strings.HasSuffix(got, "1 debate (1 item could not start), no cost (no model used)\n") {
		t.Errorf("a batch with an item that could not start:\n%s", got)
	}
	if n := strings.Count(out, "openai/my-model"); n != 1 {
		t.Errorf("the unpriced model is named %d times, want once:\n%s", n, out)
	}
	if got, want := countsLine(rows), "0 queued, 0 running, 3 done, 0 failed; cost so far ≥ $0.5000 (no price for openai/my-model)"; got != want {
		t.Errorf("progress %q, want %q", got, want)
	}
	b.Reset()
	if err := writeBatch(&b, rows, "bullbear", &BatchOptions{JSON: true}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"llm_turns": 0`, `"unpriced_models": [
      "openai/my-model"
    ]`, `"cost_usd": 0.5`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("JSON lacks %s:\n%s", want, b.String())
		}
	}
}

// On a terminal the progress table is drawn over the previous one.
func TestBatchProgressRedraws(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b, live: true}
	rows := []*BatchRow{{Item: "NVDA", Status: batchRunning, Turns: 2}, {Item: "AAPL", Status: batchQueued}}
	p.show(rows)
	first := b.String()
	if !strings.Contains(first, "1 queued, 1 running, 0 done, 0 failed") || strings.Contains(first, "\x1b[") {
		t.Fatalf("first draw:\n%q", first)
	}
	rows[0].Status, rows[1].Status = batchDone, batchRunning
	p.show(rows)
	if second := strings.TrimPrefix(b.String(), first); !strings.HasPrefix(second, "\r\x1b[4A\x1b[J") || !strings.Contains(second, "0 queued, 1 running, 1 done") {
		t.Fatalf("redraw (from the start of the table's first line, wherever an echoed ^C left the cursor):\n%q", second)
	}
	// Elsewhere, a line when the counts change, and only then.
	b.Reset()
	p = &progress{w: &b}
	p.show(rows)
	p.show(rows)
	if n := strings.Count(b.String(), "\n"); n != 1 {
		t.Fatalf("%d lines for one state:\n%s", n, b.String())
	}
}

// TestBatchProgressFitsTheTerminal: on a terminal of 40 columns every line
// of the live table stays within it, so that the redraw goes up as many
// lines as the terminal shows: a row longer than the terminal took two,
// and each drawing left the top of the last behind.
func TestBatchProgressFitsTheTerminal(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b, live: true, width: func() int { return 40 }}
	rows := []*BatchRow{{Item: "Should we move the billing service to its own database?", Status: batchRunning, ID: "DEB-9bcde9c0"},
		{Item: "AAPL", Status: batchQueued, ID: "DEB-471e5ae1"}}
	p.show(rows)
	rows[0].Status, rows[0].Turns = batchDone, 7
	p.show(rows)
	drawn := b.String()
	second := drawn[strings.LastIndex(drawn, "\x1b[J")+len("\x1b[J"):]
	for _, line := range strings.Split(strings.TrimSuffix(second, "\n"), "\n") {
		if w := ansi.StringWidth(line); w >= 40 {
			t.Errorf("a line of %d columns on a terminal of 40: %q", w, line)
		}
	}
	if up := fmt.Sprintf("\r\x1b[%dA\x1b[J", strings.Count(drawn[:strings.Index(drawn, "\r\x1b[")], "\n")); !strings.Contains(drawn, up) {
		t.Errorf("the redraw does not go up the lines drawn (%q):\n%q", up, drawn)
	}
	if !strings.Contains(second, "1 done") || !strings.Contains(second, "no cost") {
		t.Errorf("the counts line lost its end:\n%s", second)
	}
}

// TestBatchOutcome: the closing line promises a resume only for debates that
// started and stopped, and asks for a fix for items refused before starting,
// giving each one's reason whole (the table cuts it to its column).
func TestBatchOutcome(t *testing.T) {
	stopped := &BatchRow{Item: "NVDA", ID: "DEB-00000001", Status: batchFailed, Error: "paused (budget)"}
	refused := &BatchRow{Item: "ZZZZ", Status: batchFailed, Error: "ZZZZ is not a known ticker"}
	// A reason that does not name its item is given with it.
	named := &BatchRow{Item: `""`, Status: batchFailed, Error: "the topic is empty: ask a question"}
	done := &BatchRow{Item: "AAPL", ID: "DEB-00000002", Status: batchDone}
	for _, tc := range []struct {
		name     string
		rows     []*BatchRow
		want     string
		wantNone []string
	}{
		{"all done", []*BatchRow{done}, "", nil},
		{"stopped", []*BatchRow{done, stopped}, "1 of 2 debates failed: 1 stopped (see the table): running the batch again resumes it", []string{"fix"}},
		{"refused", []*BatchRow{done, refused, named}, "2 of 3 debates failed: 2 could not start: fix or remove those items, as running the batch unchanged fails the same way:\n  ZZZZ is not a known ticker\n  \"\": the topic is empty: ask a question", []string{"resumes"}},
		{"both", []*BatchRow{stopped, refused}, "2 of 2 debates failed: 1 stopped (see the table): running the batch again resumes it; 1 could not start: fix or remove that item, as running the batch unchanged fails the same way:\n  ZZZZ is not a known ticker", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := batchOutcome(tc.rows)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("got %v, want no error", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want %q", err, tc.want)
			}
			for _, w := range tc.wantNone {
				if strings.Contains(err.Error(), w) {
					t.Errorf("%q says %q:\n%v", tc.name, w, err)
				}
			}
		})
	}
}

// TestBatchLiveTableHoldsLogLines: the workers' warnings (a turn attempt
// that failed, retried) written while the live table is on the terminal
// are printed above the next drawing of the table, not into it: written
// between two drawings, they left the cursor where the redraw's erase
// missed them and the table's lines, which were drawn again under them.
func TestBatchLiveTableHoldsLogLines(t *testing.T) {
	var term bytes.Buffer
	logs := &heldLog{}
	p := &progress{w: &term, errW: &term, live: true, logs: logs}
	rows := []*BatchRow{{Item: "NVDA", Status: batchRunning, ID: "DEB-1"}}
	p.show(rows)
	drawn := term.Len()
	fmt.Fprintln(logs, `level=WARN msg="turn attempt failed" attempt=1`)
	if term.Len() != drawn {
		t.Fatalf("a log line reached the terminal between two drawings of the table:\n%q", term.String()[drawn:])
	}
	p.show(rows)
	redraw := term.String()[drawn:]
	erase, warn, table := strings.Index(redraw, "\x1b[J"), strings.Index(redraw, "turn attempt failed"), strings.Index(redraw, "ITEM")
	if erase < 0 || warn < erase || table < warn {
		t.Errorf("the redraw is not erase, then the held log line, then the table:\n%q", redraw)
	}
	// Once the table is gone for good, log lines go straight through.
	logs.release(&term)
	fmt.Fprintln(logs, "after")
	if !strings.HasSuffix(term.String(), "after\n") {
		t.Errorf("a log line after the release was held:\n%q", term.String())
	}
}

// TestBatchSummaryFitsTheTerminal: on a terminal the summary's lines are
// cut to its width (a failed item's reason, the last column, ran on to
// the next line at 120 columns); piped, nothing is cut.
func TestBatchSummaryFitsTheTerminal(t *testing.T) {
	rows := []*BatchRow{
		{Item: "Should we port the billing service to C#?", ID: "DEB-3fa2e09a", Status: batchFailed, Error: "paused (error): turn analysis failed 4 times: anthropic: network: cannot reach https://api.anthropic.com"},
		{Item: "Is Go better?", ID: "DEB-02a2d307", Status: batchDone, Result: "Go, for the team's experience"},
	}
	for _, width := range []int{80, 120} {
		var b bytes.Buffer
		if err := writeBatch(&b, rows, "perspectives", &BatchOptions{width: width}); err != nil {
			t.Fatal(err)
		}
		for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
			if n := utf8.RuneCountInString(l); n > width {
				t.Errorf("width %d: a line of %d columns:\n%s", width, n, l)
			}
		}
		if !strings.Contains(b.String(), "DEB-3fa2e09a  failed") {
			t.Errorf("width %d: the id and status are cut:\n%s", width, b.String())
		}
	}
	var b bytes.Buffer
	if err := writeBatch(&b, rows, "perspectives", &BatchOptions{}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "anthropic: ne") {
		t.Errorf("piped, the reason is cut:\n%s", b.String())
	}
}
