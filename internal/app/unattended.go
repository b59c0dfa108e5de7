package app

import (
	"context"
	"fmt"
	"slices"

	"github.com/parleyhq/parley/internal/debate"
)

// Unattended is the debate.Human of a resume with --no-checkpoints: it
// answers every checkpoint "continue" without asking, telling Said (when
// not nil) first. A new debate's --no-checkpoints is its format's option,
// so no checkpoint is reached; a debate created with checkpoints keeps
// them, and one paused at a checkpoint waits for that answer, so a resume
// that is to run unattended answers them. Every front-end resumes with it
// (the CLI, the shell).
type Unattended struct {
	Said func(debate.CheckpointReached)
}

// Checkpoint implements debate.Human.
func (u Unattended) Checkpoint(_ context.Context, _ *debate.State, c debate.CheckpointReached) (debate.CheckpointAnswered, error) {
	if !slices.Contains(c.Options, debate.ActionContinue) {
		return debate.CheckpointAnswered{}, fmt.Errorf("checkpoint %s cannot be answered \"continue\" (--no-checkpoints): answer it without --no-checkpoints", c.ID)
	}
	if u.Said != nil {
		u.Said(c)
	}
	return debate.CheckpointAnswered{ID: c.ID, Action: debate.ActionContinue}, nil
}
