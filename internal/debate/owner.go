package debate

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"time"
)

// processStart is when this process started, as near as Go can tell: it
// tells a runner's process apart from a later one that reused its pid.
var processStart = time.Now()

// ThisProcess is a new lease owner for a runner in this process: a random id,
// the host name, the pid and the process's start time.
func ThisProcess() LeaseOwner {
	var b [8]byte
	_, _ = rand.Read(b[:])
	host, err := os.Hostname()
	if err != nil {
		host = "unknown"
	}
	return LeaseOwner{ID: hex.EncodeToString(b[:]), Host: host, PID: os.Getpid(), Started: processStart}
}

// OwnerAlive reports whether a lease's owner may still be running: false
// only for a process of this host that no longer exists. Owners on other
// hosts are judged by their lease's expiry alone.
func OwnerAlive(o LeaseOwner) bool {
	host, err := os.Hostname()
	if err != nil || o.Host != host || o.PID <= 0 {
		return true
	}
	if o.PID == os.Getpid() {
		return true
	}
	return processExists(o.PID)
}
