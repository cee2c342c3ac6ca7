// Prints the rendezvous test vectors of dev.hoplock.core.ownership.RendezvousVectorsTest, computed in Go from the
// definition shared with hanzoai/ha: weight = first 8 bytes of SHA-256(key || 0x00 || id), big-endian uint64; rank by
// weight descending, then id ascending (Go's byte-wise string order). Run: go run vectors.go
// Each line: key (quoted) -> members ranked (the first is the owner), then the weights of the first vector.
package main

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"sort"
)

func weight(key, id string) uint64 {
	sum := sha256.Sum256([]byte(key + "\x00" + id))
	return binary.BigEndian.Uint64(sum[:8])
}

func main() {
	vectors := []struct {
		key string
		ids []string
	}{
		{"acme", []string{"r3", "r1", "r2"}},
		{"acme", []string{"r1", "r2", "r3", "r4"}},
		{"some-org-slug", []string{"replica-00", "replica-01", "replica-02", "replica-03", "replica-04", "replica-05",
			"replica-06", "replica-07", "replica-08", "replica-09", "replica-10", "replica-11", "replica-12",
			"replica-13", "replica-14", "replica-15"}},
		{"", []string{"a", "b"}},
		{"a", []string{"r1", "r2", "r3"}},
		{"customer-42", []string{"node-1", "node-2", "node-3", "node-4", "node-5"}},
		{"tenant/zürich", []string{"eu-1", "eu-2", "us-1"}},
		{"🎉-party", []string{"\uff61", "\U0001f600", "z"}},
		{"invoice:2024-0001", []string{"billing-a", "billing-b", "billing-c", "billing-d", "billing-e", "billing-f",
			"billing-g"}},
		{"ab", []string{"c"}},
		{"k", []string{"member-0", "member-1", "member-2", "member-3", "member-4", "member-5", "member-6",
			"member-7", "member-8", "member-9"}},
		{"queue/partition-7", []string{"10.0.0.1:8080", "10.0.0.2:8080", "10.0.0.3:8080"}},
	}
	for _, v := range vectors {
		ids := append([]string(nil), v.ids...)
		sort.Slice(ids, func(i, j int) bool {
			wi, wj := weight(v.key, ids[i]), weight(v.key, ids[j])
			return wi > wj || (wi == wj && ids[i] < ids[j])
		})
		fmt.Printf("%q -> %q\n", v.key, ids)
	}
	for _, id := range []string{"r1", "r2", "r3"} {
		fmt.Printf("weight(%q, %q) = %d\n", "acme", id, weight("acme", id))
	}
}
