package app

import (
	"net"
	"strings"
)

// LoopbackDefault fills in the host of a listen address the way the
// simulator and the model server do: a bare ":port" binds 127.0.0.1:port,
// so serving beyond this machine always takes an explicit host.
func LoopbackDefault(addr string) string {
	if strings.HasPrefix(addr, ":") {
		return net.JoinHostPort("127.0.0.1", addr[1:])
	}
	return addr
}
