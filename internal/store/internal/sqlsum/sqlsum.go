// Package sqlsum holds what the SQL stores (sqlite, postgres) share about
// their debates table, the debate.Summary projection: its columns, the
// upsert an append ends with, the encoding of the models without a price,
// the list query's clauses, and the backfill of the spend columns from the
// turns projection when a database is migrated to them; and the row type of
// that turns projection, Turn, which both stores' Turns return.
//
// The SQL here is the subset both dialects read alike; what differs (time
// types, parameter markers, the lease's columns) stays in each store.
package sqlsum

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm"
)

// Columns are the debates table's columns, in the order each store scans
// and writes them. llm_turns and unpriced_models are debate.Summary's
// LLMTurns and Unpriced, kept by debate.Project at each append like the
// others, so that Get and List read one row per debate.
const Columns = `id, format, topic, status, phase, round, turns, created, updated, last_seq, cost_usd, llm_turns, unpriced_models`

// OnConflict ends the INSERT of a summary row: an existing debate's row is
// replaced by the newly projected one.
const OnConflict = `ON CONFLICT (id) DO UPDATE SET format = excluded.format, topic = excluded.topic, status = excluded.status,
	phase = excluded.phase, round = excluded.round, turns = excluded.turns, created = excluded.created,
	updated = excluded.updated, last_seq = excluded.last_seq, cost_usd = excluded.cost_usd,
	llm_turns = excluded.llm_turns, unpriced_models = excluded.unpriced_models`

// EncodeUnpriced is the unpriced_models column of a summary: a JSON array
// of the model names, [] when none (the column's default).
func EncodeUnpriced(models []string) []byte {
	if len(models) == 0 {
		return []byte("[]")
	}
	b, err := json.Marshal(models)
	if err != nil {
		// A []string always marshals; this would be a bug in encoding/json.
		panic(fmt.Sprintf("encode unpriced models %q: %v", models, err))
	}
	return b
}

// DecodeUnpriced reads an unpriced_models column: nil for [], as
// debate.Project leaves Summary.Unpriced when every model has a price.
func DecodeUnpriced(b []byte) ([]string, error) {
	if string(b) == "[]" {
		return nil, nil // nearly every row: no decoding, no allocation
	}
	var models []string
	if err := json.Unmarshal(b, &models); err != nil {
		return nil, fmt.Errorf("read unpriced models %q: %w", b, err)
	}
	return models, nil
}

// ListClauses returns what follows a List query's FROM: the filter, the
// order (newest first, then by id, whose ordering expression byID gives)
// and the limit, with the arguments; param(n) writes the nth parameter
// marker of the store's dialect, and timeArg is a time as the store's
// created column holds it. ListFilter.After is a row comparison, which
// both databases answer from the index on (created, id) by starting the
// scan at the position, not by reading the pages before it.
func ListClauses(f debate.ListFilter, param func(n int) string, byID string, timeArg func(time.Time) any) (string, []any) {
	q := ` WHERE true`
	var args []any
	for _, c := range []struct {
		column, value string
	}{{"format", f.Format}, {"status", string(f.Status)}, {"topic", f.Topic}} {
		if c.value != "" {
			args = append(args, c.value)
			q += ` AND ` + c.column + ` = ` + param(len(args))
		}
	}
	if len(f.Statuses) > 0 {
		q += ` AND status IN (`
		for i, st := range f.Statuses {
			args = append(args, string(st))
			if i > 0 {
				q += `, `
			}
			q += param(len(args))
		}
		q += `)`
	}
	if f.After != nil {
		args = append(args, timeArg(f.After.Created), f.After.ID)
		q += ` AND (created, ` + byID + `) < (` + param(len(args)-1) + `, ` + param(len(args)) + `)`
	}
	q += ` ORDER BY created DESC, ` + byID + ` DESC`
	if f.Limit > 0 {
		args = append(args, f.Limit)
		q += ` LIMIT ` + param(len(args))
	}
	return q, args
}

// CountQuery is Store.Count's query: one aggregate over the debates table,
// in the order the contract gives (byStatus and byFormat are the columns'
// ordering expressions, in byte order).
func CountQuery(byStatus, byFormat string) string {
	return `SELECT status, format, count(*), COALESCE(sum(turns), 0), COALESCE(sum(cost_usd), 0) FROM debates
		GROUP BY status, format ORDER BY ` + byStatus + `, ` + byFormat
}

// ScanCounts reads the rows of CountQuery.
func ScanCounts(next func() bool, scan func(dest ...any) error, rowsErr func() error) ([]debate.Count, error) {
	var out []debate.Count
	for next() {
		var c debate.Count
		if err := scan(&c.Status, &c.Format, &c.Debates, &c.Turns, &c.CostUSD); err != nil {
			return nil, fmt.Errorf("count debates: %w", err)
		}
		out = append(out, c)
	}
	if err := rowsErr(); err != nil {
		return nil, fmt.Errorf("count debates: %w", err)
	}
	return out, nil
}

// Spend is a debate's llm_turns and unpriced_models.
type Spend struct {
	LLMTurns int
	Unpriced []string
}

// Spends computes the spend columns of every debate that has turns from
// its turns projection, for a migration's backfill: the turns recorded
// before the columns existed are judged as debate.Project judges them at
// an append (debate.CostUnknown; a data-only turn is told by its model,
// the turns projection having no no_llm column), in log order, so that a
// backfilled summary is the one its log folds to. hasPriced is false for
// a schema whose turns lack their priced column: every turn was recorded
// before turns said whether they were priced.
func Spends(ctx context.Context, q interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}, hasPriced bool) (map[string]*Spend, error) {
	priced := "priced"
	if !hasPriced {
		priced = "false"
	}
	rows, err := q.QueryContext(ctx, `SELECT debate_id, model, cost_usd, `+priced+` FROM turns
		WHERE model <> '`+debate.DataOnlyModel+`' ORDER BY debate_id, seq`)
	if err != nil {
		return nil, fmt.Errorf("read the turns' models and costs: %w", err)
	}
	defer rows.Close()
	out := map[string]*Spend{}
	for rows.Next() {
		var (
			id, model string
			cost      float64
			isPriced  bool
		)
		if err := rows.Scan(&id, &model, &cost, &isPriced); err != nil {
			return nil, fmt.Errorf("read the turns' models and costs: %w", err)
		}
		sp := out[id]
		if sp == nil {
			sp = &Spend{}
			out[id] = sp
		}
		sp.LLMTurns++
		if debate.CostUnknown(model, cost, false, isPriced) {
			sp.Unpriced = debate.AddUnpriced(sp.Unpriced, model)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read the turns' models and costs: %w", err)
	}
	return out, nil
}

// Turn is one row of the turns projection: a completed turn of a debate.
type Turn struct {
	Debate  string
	Seq     int64 // of its turn.completed event
	Time    time.Time
	Ref     debate.TurnRef
	Text    string
	Move    json.RawMessage // nil when the turn has no parsed move
	Invalid string
	Model   string
	Usage   llm.Usage
	CostUSD float64
}

// ScanFunc is a function as a row to scan: each store's scanLeased hands
// its scanSummary a ScanFunc that appends the lease's columns to the
// summary's, so that one Scan reads both.
type ScanFunc func(dest ...any) error

// Scan calls f.
func (f ScanFunc) Scan(dest ...any) error { return f(dest...) }
