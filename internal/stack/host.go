package stack

import (
	"context"

	"github.com/phoneflow/phoneflow/config"
	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/phonesim"
)

// Host is one more phone host of a stack: a built-in ADB server of its own
// with its own simulated phones, as a second machine with phones plugged
// in would have. A worker for it (StartWorker or NewProcess with Config)
// serves exactly its phones.
type Host struct {
	// Config is the stack's configuration pointed at this host's ADB
	// server, with its phones as the allow-list.
	Config  config.Config
	ADB     *adb.Client
	ADBAddr string
	Phones  []*phonesim.Phone
	Serials []string
}

// AddHost starts a host with n simulated phones (0: a host without phones;
// its ADB server lists none, so its worker serves only the shared goal
// queue). It stops with the stack.
func (s *Stack) AddHost(ctx context.Context, n int) (*Host, error) {
	addr, err := s.serveBuiltinADB()
	if err != nil {
		return nil, err
	}
	h := &Host{ADBAddr: addr, ADB: adb.New(adb.Config{Addr: addr})}
	if n > 0 {
		if h.Phones, h.Serials, err = s.attachPhones(ctx, s.runCtx, h.ADB, n, nil, s.costs); err != nil {
			return nil, err
		}
	}
	h.Config = s.Config
	h.Config.ADB.Address = addr
	h.Config.ADB.Allow = append([]string(nil), h.Serials...)
	return h, nil
}
