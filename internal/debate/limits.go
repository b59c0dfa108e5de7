package debate

import "time"

// Limits bound a debate's time and tokens. A zero value means "no limit" for
// budgets and "default" nowhere: use DefaultLimits and override fields.
type Limits struct {
	CallTimeout   time.Duration `json:"call_timeout"`   // one model call, tool loop included
	RoundTimeout  time.Duration `json:"round_timeout"`  // all turns of one round, in this run
	DebateTimeout time.Duration `json:"debate_timeout"` // the whole run
	// TurnBudget is the output tokens each agent may spend per round; 0 = unlimited.
	TurnBudget int `json:"turn_budget"`
	// DebateBudget is the input+output tokens the whole debate may spend; 0 = unlimited.
	DebateBudget int `json:"debate_budget"`
	MaxAttempts  int `json:"max_attempts"` // tries per turn, first included
	// BackoffBase and BackoffMax shape the exponential backoff between tries.
	BackoffBase time.Duration `json:"backoff_base"`
	BackoffMax  time.Duration `json:"backoff_max"`
	// CheckpointTimeout pauses the debate when no human answers in time.
	CheckpointTimeout time.Duration `json:"checkpoint_timeout"`
	// Concurrency caps turns running at once; 0 = as many as the protocol allows.
	Concurrency int `json:"concurrency"`
	// MaxToolCalls caps tool calls per agent per debate (the bullbear spec: 5).
	MaxToolCalls int `json:"max_tool_calls"`
}

// DefaultLimits are the spec's defaults.
func DefaultLimits() Limits {
	return Limits{
		CallTimeout:       120 * time.Second,
		RoundTimeout:      120 * time.Second,
		DebateTimeout:     1800 * time.Second,
		TurnBudget:        2000,
		DebateBudget:      0,
		MaxAttempts:       4,
		BackoffBase:       500 * time.Millisecond,
		BackoffMax:        30 * time.Second,
		CheckpointTimeout: 30 * time.Minute,
		MaxToolCalls:      5,
	}
}
