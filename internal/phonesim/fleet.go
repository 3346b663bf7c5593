package phonesim

import (
	"context"
	"fmt"
	"net"
	"strconv"
)

// FleetConfig describes several phones on consecutive even port offsets.
type FleetConfig struct {
	Addr   string // first phone's address; default "127.0.0.1:5555"
	Phones int    // number of phones; default 1
	Width  int    // screen size for every phone; 0 takes the default
	Height int
	// Density is every phone's screen density in dpi; 0 takes the default.
	Density int
	// Life is what the phones do by themselves; phone i draws from
	// Seed+i.
	Life Life
	// Costs is every phone's cost profile (each draws from its own seed).
	Costs Costs
	// Skin is every phone's look of Settings and Quick Settings.
	Skin Skin
}

// StartFleet starts cfg.Phones phones, phone i listening on port+2i (the
// emulator convention), each serial being its address as adb names it.
// They serve until ctx ends. If any port cannot be bound the ones already
// started are stopped and the error names the port.
func StartFleet(ctx context.Context, cfg FleetConfig) ([]*Phone, []string, error) {
	if cfg.Addr == "" {
		cfg.Addr = "127.0.0.1:5555"
	}
	if cfg.Phones <= 0 {
		cfg.Phones = 1
	}
	host, portStr, err := net.SplitHostPort(cfg.Addr)
	if err != nil {
		return nil, nil, fmt.Errorf("phonesim: bad address %q, want host:port such as 127.0.0.1:5555: %w", cfg.Addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	port, err := strconv.Atoi(portStr)
	if err != nil || port <= 0 || port+2*(cfg.Phones-1) > 65535 {
		return nil, nil, fmt.Errorf("phonesim: bad port in %q (phones use port, port+2, ...)", cfg.Addr)
	}
	var lns []net.Listener
	var addrs []string
	for i := 0; i < cfg.Phones; i++ {
		addr := net.JoinHostPort(host, strconv.Itoa(port+2*i))
		ln, err := Listen(addr)
		if err != nil {
			for _, l := range lns {
				_ = l.Close()
			}
			return nil, nil, err
		}
		lns = append(lns, ln)
		addrs = append(addrs, ln.Addr().String())
	}
	phones := make([]*Phone, len(lns))
	for i, ln := range lns {
		life := cfg.Life
		life.Seed += uint64(i)
		phones[i] = New(Config{Serial: addrs[i], Width: cfg.Width, Height: cfg.Height, Density: cfg.Density, Life: life, Costs: cfg.Costs, Skin: cfg.Skin})
		go func() { _ = phones[i].Serve(ctx, ln) }()
	}
	return phones, addrs, nil
}
