package adbserver

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net"
	"testing"
	"time"

	"github.com/phoneflow/phoneflow/internal/adb"

	"github.com/phoneflow/phoneflow/internal/adbwire"
)

// authPhone is a device that answers our CNXN with an AUTH challenge, as
// a phone that has not accepted this computer's key does.
func authPhone(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				m, err := readMessage(c)
				if err != nil || m.Command != adbwire.CmdCNXN {
					return
				}
				_, _ = c.Write(message{Command: adbwire.CmdAUTH, Arg0: 1, Data: []byte("01234567890123456789")}.Encode())
				_, _ = io.Copy(io.Discard, c) // a signature or RSA key would follow; we get neither
			}()
		}
	}()
	return ln.Addr().String()
}

func TestUnauthorizedDevice(t *testing.T) {
	serial := authPhone(t)
	s := New(Config{Logger: slog.New(slog.DiscardHandler)})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := s.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c := adb.New(adb.Config{Addr: s.Addr()})

	err := c.Connect(ctx, serial)
	var fe *adb.FailError
	if !errors.As(err, &fe) || fe.Message != "failed to authenticate to "+serial {
		t.Fatalf("Connect to a device asking for a key = %v", err)
	}
	devs, err := c.Devices(ctx)
	if err != nil || len(devs) != 1 || devs[0].State != "unauthorized" {
		t.Fatalf("Devices = %+v, %v; want one unauthorized", devs, err)
	}
	if _, err := c.Shell(ctx, serial, "echo"); !errors.Is(err, adb.ErrUnauthorized) {
		t.Fatalf("Shell on an unauthorized device = %v; want adb.ErrUnauthorized", err)
	}
	if err := c.WaitForDevice(ctx, serial); !errors.Is(err, adb.ErrUnauthorized) {
		t.Fatalf("WaitForDevice = %v; want adb.ErrUnauthorized", err)
	}
}
