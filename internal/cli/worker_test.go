package cli

import (
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"
)

// A worker whose --metrics-addr cannot be served stops with a usage error
// before it starts taking debates (it would drop those it had taken).
func TestWorkerMetricsAddrTakenFirst(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	f := testFactory(t, "", false)
	db := f.DBPath // NewRootCmd sets it to the --db flag's
	root := NewRootCmd(f)
	root.SetArgs([]string{"worker", "--log-format", "text", "--metrics-addr", busy.Addr().String(), "--db", db})
	err = root.ExecuteContext(context.Background())
	if ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "--metrics-addr "+busy.Addr().String()+": cannot listen") {
		t.Fatalf("worker on a busy metrics address: %v, want a usage error naming it", err)
	}
	if log := f.IO.ErrOut.(interface{ String() string }).String(); strings.Contains(log, "workers started") {
		t.Errorf("the worker started taking debates before it found its metrics address taken:\n%s", log)
	}
}

// TestWorkerLogIsInert: a worker's log carries what servers and models
// said (an error's text, a debate's topic): in either format, the
// characters a terminal acts on that encoders leave raw (C1 controls such
// as U+009B, which xterm reads as CSI, bidi overrides, DEL) are escaped,
// and a JSON line still decodes to what was logged.
func TestWorkerLogIsInert(t *testing.T) {
	const said = "server said: \x1b]0;x\x07 \u009b2J \u202egnp.exe\x7f"
	for _, format := range []string{"json", "text"} {
		var b strings.Builder
		log, err := workerLog(&b, format)
		if err != nil {
			t.Fatal(err)
		}
		log.Warn("a turn failed", "err", said)
		if strings.ContainsAny(b.String(), "\x1b\x07\u009b\u202e\x7f") {
			t.Errorf("%s log: a character a terminal acts on is raw: %q", format, b.String())
		}
		if format == "json" {
			var rec struct{ Err string }
			if err := json.Unmarshal([]byte(b.String()), &rec); err != nil || rec.Err != said {
				t.Errorf("the JSON line decodes to %q (%v), want %q", rec.Err, err, said)
			}
		}
	}
}

// TestWorkerLogDurations: a JSON log line gives a duration as the text
// format and the flags do ("198ms"), not as nanoseconds with no unit
// ("took":198000000).
func TestWorkerLogDurations(t *testing.T) {
	var b strings.Builder
	log, err := workerLog(&b, "json")
	if err != nil {
		t.Fatal(err)
	}
	log.Info("completed", "took", 198*time.Millisecond, slog.Group("stop", "timeout", 2*time.Minute))
	var rec struct {
		Took string
		Stop struct{ Timeout string }
	}
	if err := json.Unmarshal([]byte(b.String()), &rec); err != nil || rec.Took != "198ms" || rec.Stop.Timeout != "2m0s" {
		t.Errorf("the JSON line %s decodes to %+v (%v), want took 198ms and stop.timeout 2m0s", b.String(), rec, err)
	}
}

// TestStopTimeoutAboveZero: --stop-timeout 0 or less (of worker, serve and
// batch) is refused: the queue took it as its default of 2 minutes, while
// the log said stop_timeout=-1s and the process waited 29 s for its workers.
func TestStopTimeoutAboveZero(t *testing.T) {
	for _, d := range []time.Duration{0, -time.Second} {
		_, err := (&WorkerOptions{Workers: 1, StopTimeout: d}).config(nil, nil)
		if ExitCode(err) != ExitUsage || !strings.Contains(err.Error(), "--stop-timeout "+d.String()+": give how long the turns running may take to finish") {
			t.Errorf("--stop-timeout %s: %v, want a usage error naming it", d, err)
		}
	}
	if _, err := (&WorkerOptions{Workers: 1, StopTimeout: time.Second}).config(nil, nil); err != nil {
		t.Errorf("--stop-timeout 1s: %v", err)
	}
}
