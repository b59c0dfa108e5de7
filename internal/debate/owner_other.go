//go:build !unix

package debate

// processExists cannot tell on this system: the lease's expiry decides.
func processExists(int) bool { return true }
