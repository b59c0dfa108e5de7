package debate_test

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/parleyhq/parley/internal/debate"
	"github.com/parleyhq/parley/internal/llm/script"
)

// TestSecondRunnerRefused: while one runner holds a debate, a second is
// refused at once, naming the holder, and appends nothing.
func TestSecondRunnerRefused(t *testing.T) {
	e := newEnv(t, script.Rule{Tag: "t1", Reply: &script.Reply{Text: "slow reply"}})
	e.create("DEB-lease", debate.DefaultLimits())
	held, err := e.store.AcquireLease(context.Background(), "DEB-lease",
		debate.LeaseOwner{ID: "other", Host: "elsewhere", PID: 4211, Started: time.Now()}, time.Minute, "")
	if err != nil {
		t.Fatal(err)
	}
	before := len(e.events("DEB-lease"))
	_, err = e.runner.Run(context.Background(), "DEB-lease", &toyProto{steps: []toyStep{turns(turn("t1", "a", 1))}})
	var le *debate.LeaseHeldError
	if !errors.As(err, &le) || le.Lease.Owner.PID != 4211 {
		t.Fatalf("Run: %v, want *LeaseHeldError naming pid 4211", err)
	}
	for _, want := range []string{"DEB-lease is running", "pid 4211 on host elsewhere", "since " + held.Since.Local().Format("15:04"), "wait for it or stop it"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if after := len(e.events("DEB-lease")); after != before {
		t.Errorf("the refused runner appended %d events", after-before)
	}
}

// TestDeadRunnerLeaseTakenOver: the lease of a process of this host that no
// longer exists is taken over at once; the runner releases it when done.
func TestDeadRunnerLeaseTakenOver(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("cannot run a child process: %v", err)
	}
	host, _ := os.Hostname()
	dead := debate.LeaseOwner{ID: "dead", Host: host, PID: cmd.Process.Pid, Started: time.Now()}
	if debate.OwnerAlive(dead) {
		t.Skip("the finished child's pid was reused")
	}
	e := newEnv(t, script.Rule{Tag: "t1", Reply: &script.Reply{Text: "done"}})
	e.create("DEB-dead", debate.DefaultLimits())
	if _, err := e.store.AcquireLease(context.Background(), "DEB-dead", dead, time.Hour, ""); err != nil {
		t.Fatal(err)
	}
	sum, _ := e.store.Get(context.Background(), "DEB-dead")
	if got := sum.Shown(time.Now(), debate.OwnerAlive); got != debate.StatusInterrupted {
		t.Errorf("a running debate whose runner died shows as %q, want interrupted", got)
	}
	atCheckpoint := sum
	atCheckpoint.Status = debate.StatusCheckpoint
	if got := atCheckpoint.Shown(time.Now(), debate.OwnerAlive); got != debate.StatusInterrupted {
		t.Errorf("a debate whose runner died waiting at a checkpoint shows as %q, want interrupted", got)
	}
	if got := atCheckpoint.Shown(time.Now(), func(debate.LeaseOwner) bool { return true }); got != debate.StatusCheckpoint {
		t.Errorf("a debate waiting at a checkpoint with its runner alive shows as %q", got)
	}
	s, err := e.runner.Run(context.Background(), "DEB-dead", &toyProto{steps: []toyStep{turns(turn("t1", "a", 1))}})
	if err != nil || s.Status != debate.StatusCompleted {
		t.Fatalf("Run: %v (status %v)", err, s.Status)
	}
	if sum, _ := e.store.Get(context.Background(), "DEB-dead"); sum.Lease != nil {
		t.Errorf("the lease is still held after the run: %+v", sum.Lease)
	}
}

// TestLostLeaseStopsAppending: a runner whose lease another runner took
// stops and appends nothing more.
func TestLostLeaseStopsAppending(t *testing.T) {
	e := newEnv(t, script.Rule{Tag: "t1", Reply: &script.Reply{Text: "a reply that streams slowly", Delay: script.Duration(300 * time.Millisecond)}})
	e.create("DEB-lost", debate.DefaultLimits())
	e.runner.Owner = debate.LeaseOwner{ID: "first", Host: "h", PID: 1}
	e.runner.LeaseTTL = 60 * time.Millisecond
	go func() {
		time.Sleep(20 * time.Millisecond)
		_, _ = e.store.AcquireLease(context.Background(), "DEB-lost", debate.LeaseOwner{ID: "thief", Host: "h2", PID: 2}, time.Hour, "first")
	}()
	_, err := e.runner.Run(context.Background(), "DEB-lost", &toyProto{steps: []toyStep{turns(turn("t1", "a", 1))}})
	if !errors.Is(err, debate.ErrLeaseLost) {
		t.Fatalf("Run: %v, want ErrLeaseLost", err)
	}
	for _, ev := range e.events("DEB-lost") {
		if ev.Type == debate.TypePaused || ev.Type == debate.TypeTurnCompleted {
			t.Errorf("the runner that lost its lease appended %s", ev.Type)
		}
	}
}

// TestConcurrentTurnsStartInStepOrder: the turn.started events of a step's
// concurrent turns are in the step's order, whichever turn is ready first,
// so that every view shows them in the protocol's order.
func TestConcurrentTurnsStartInStepOrder(t *testing.T) {
	for range 5 {
		e := newEnv(t,
			script.Rule{Tag: "a", Reply: &script.Reply{Text: "alpha"}},
			script.Rule{Tag: "b", Reply: &script.Reply{Text: "beta"}},
			script.Rule{Tag: "c", Reply: &script.Reply{Text: "gamma"}},
		)
		e.create("DEB-order", debate.DefaultLimits())
		p := &toyProto{steps: []toyStep{turns(turn("a", "x", 1), turn("b", "y", 1), turn("c", "z", 1))}}
		if _, err := e.runner.Run(context.Background(), "DEB-order", p); err != nil {
			t.Fatal(err)
		}
		var order []string
		for _, ev := range e.events("DEB-order") {
			var ts debate.TurnStarted
			if ev.Type == debate.TypeTurnStarted && ev.Decode(&ts) == nil {
				order = append(order, ts.Turn.ID)
			}
		}
		if strings.Join(order, ",") != "a,b,c" {
			t.Fatalf("turns started in the order %v, want a, b, c", order)
		}
	}
}

// TestKilledRunnerNotReaped: a runner killed with SIGKILL whose parent has
// not reaped it yet (a zombie, which signal 0 still finds) is dead at once,
// not running until its parent gets round to it.
func TestKilledRunnerNotReaped(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("/proc tells a zombie apart on Linux only")
	}
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Skipf("cannot run a child process: %v", err)
	}
	host, _ := os.Hostname()
	owner := debate.LeaseOwner{ID: "child", Host: host, PID: cmd.Process.Pid, Started: time.Now()}
	if !debate.OwnerAlive(owner) {
		t.Fatal("a running child is not alive")
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Wait() }()
	// Not reaped until Wait: wait for the kernel to make it a zombie (or
	// to see the SIGKILL pending), which signal 0 cannot tell.
	deadline := time.Now().Add(10 * time.Second)
	for debate.OwnerAlive(owner) {
		if time.Now().After(deadline) {
			t.Fatal("a child killed with SIGKILL and not reaped is still alive after 10s")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := syscall.Kill(cmd.Process.Pid, 0); err != nil {
		t.Fatalf("the child was reaped before the check could prove anything: %v", err)
	}
}
