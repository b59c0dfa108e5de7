package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/pressly/goose/v3"

	"github.com/parleyhq/parley/internal/store/internal/sqlsum"
)

// spendMigration is schema version 6, in Go rather than in migrations/
// because its backfill judges old turns by the built-in price table
// (debate.CostUnknown), which SQL cannot read. It adds debate.Summary's
// LLMTurns and Unpriced to the debates projection, kept at each append
// from then on, and fills them from the turns projection; Get and List
// computed them from the turns at every read before, through the
// turns_spend index, which nothing reads now. One transaction, as every
// SQLite migration: the database is locked for writes while it runs. A
// function, as goose may keep state in what it is given.
func spendMigration() *goose.Migration {
	return goose.NewGoMigration(6,
		&goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error {
			for _, q := range []string{
				`ALTER TABLE debates ADD COLUMN llm_turns INTEGER NOT NULL DEFAULT 0`,
				`ALTER TABLE debates ADD COLUMN unpriced_models TEXT NOT NULL DEFAULT '[]'`,
			} {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return fmt.Errorf("add the spend columns: %w", err)
				}
			}
			spends, err := sqlsum.Spends(ctx, tx, true)
			if err != nil {
				return err
			}
			update, err := tx.PrepareContext(ctx, `UPDATE debates SET llm_turns = ?, unpriced_models = ? WHERE id = ?`)
			if err != nil {
				return fmt.Errorf("fill the spend columns: %w", err)
			}
			defer update.Close()
			for id, sp := range spends {
				if _, err := update.ExecContext(ctx, sp.LLMTurns, string(sqlsum.EncodeUnpriced(sp.Unpriced)), id); err != nil {
					return fmt.Errorf("fill the spend columns of debate %q: %w", id, err)
				}
			}
			if _, err := tx.ExecContext(ctx, `DROP INDEX turns_spend`); err != nil {
				return fmt.Errorf("drop turns_spend: %w", err)
			}
			return nil
		}},
		&goose.GoFunc{RunTx: func(ctx context.Context, tx *sql.Tx) error {
			for _, q := range []string{
				`CREATE INDEX turns_spend ON turns (debate_id, model, cost_usd, priced)`,
				`ALTER TABLE debates DROP COLUMN unpriced_models`,
				`ALTER TABLE debates DROP COLUMN llm_turns`,
			} {
				if _, err := tx.ExecContext(ctx, q); err != nil {
					return fmt.Errorf("undo schema version 6: %w", err)
				}
			}
			return nil
		}},
	)
}
