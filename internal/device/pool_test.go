package device

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/phoneflow/phoneflow/internal/adb"
	"github.com/phoneflow/phoneflow/internal/adb/adbtest"
)

func adbtestFile(s string) adbtest.File { return adbtest.File{Data: []byte(s), Mode: 0o100644} }

func poolServer(t *testing.T, devs ...adbtest.Device) (*adbtest.Server, *adb.Client) {
	s, err := adbtest.New(devs...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, adb.New(adb.Config{Addr: s.Addr})
}

func TestPool(t *testing.T) {
	_, c := poolServer(t,
		adbtest.Device{Serial: "a", State: "device", Model: "Pixel_7", TransportID: 1},
		adbtest.Device{Serial: "b", State: "offline"},
		adbtest.Device{Serial: "c", State: "unauthorized"},
		adbtest.Device{Serial: "hidden", State: "device"})
	p := NewPool(c, PoolOptions{Allow: []string{"a", "b", "c", "x"}})
	infos, err := p.List(tctx(t))
	if err != nil {
		t.Fatal(err)
	}
	if got := []string{infos[0].Serial, infos[1].Serial, infos[2].Serial}; len(infos) != 3 || !slices.Equal(got, []string{"a", "b", "c"}) || infos[0].Model != "Pixel_7" || infos[0].TransportID != 1 {
		t.Fatalf("List = %+v", infos)
	}
	d1, err := p.Get(tctx(t), "a")
	if err != nil || d1.Serial() != "a" {
		t.Fatalf("Get(a) = %v, %v", d1, err)
	}
	if d2, _ := p.Get(tctx(t), "a"); d2 != d1 {
		t.Error("Get returned a new Device for the same serial")
	}
	if d, err := p.Get(tctx(t), ""); err != nil || d != d1 {
		t.Errorf("Get(\"\") = %v, %v; want the only ready phone", d, err)
	}
	var na *NotAllowedError
	if _, err := p.Get(tctx(t), "hidden"); !errors.As(err, &na) || !strings.Contains(err.Error(), "allow") {
		t.Errorf("Get(hidden) = %v; want NotAllowedError", err)
	}
	var nf *adb.DeviceNotFoundError
	if _, err := p.Get(tctx(t), "x"); !errors.As(err, &nf) || !slices.Equal(nf.Present, []string{"a", "b", "c"}) {
		t.Errorf("Get(x) = %v; want DeviceNotFoundError listing a, b, c", err)
	}
	if _, err := p.Get(tctx(t), "b"); !errors.Is(err, adb.ErrDeviceOffline) {
		t.Errorf("Get(b) = %v; want ErrDeviceOffline", err)
	}
	if _, err := p.Get(tctx(t), "c"); !errors.Is(err, adb.ErrUnauthorized) {
		t.Errorf("Get(c) = %v; want ErrUnauthorized", err)
	}
	open := NewPool(c, PoolOptions{})
	if _, err := open.Get(tctx(t), ""); err == nil || !strings.Contains(err.Error(), "a, hidden") {
		t.Errorf("Get(\"\") with two ready phones = %v; want a request for a serial", err)
	}
}

func TestConnectAll(t *testing.T) {
	_, c := poolServer(t)
	ok, err := ConnectAll(tctx(t), c, []string{"127.0.0.1:5555", "127.0.0.1:1", "10.0.0.2"})
	if !slices.Equal(ok, []string{"127.0.0.1:5555", "10.0.0.2:5555"}) {
		t.Errorf("connected %q", ok)
	}
	var fe *adb.FailError
	if !errors.As(err, &fe) || !strings.Contains(err.Error(), "failed to connect") {
		t.Errorf("err = %v; want the failed connection's message", err)
	}
}

func TestPoolReconnectsNetworkPhone(t *testing.T) {
	s, c := poolServer(t, adbtest.Device{Serial: "127.0.0.1:5555", State: "offline"}, adbtest.Device{Serial: "usb1", State: "offline"})
	p := NewPool(c, PoolOptions{})
	d, err := p.Get(tctx(t), "127.0.0.1:5555")
	if err != nil || d.Serial() != "127.0.0.1:5555" {
		t.Fatalf("Get of an offline network phone = %v, %v; want it re-attached", d, err)
	}
	reqs := s.Requests()
	if !slices.Contains(reqs, "host:disconnect:127.0.0.1:5555") || !slices.Contains(reqs, "host:connect:127.0.0.1:5555") {
		t.Errorf("requests %q lack the re-attach", reqs)
	}
	if _, err := p.Get(tctx(t), "usb1"); !errors.Is(err, adb.ErrDeviceOffline) {
		t.Errorf("Get of an offline USB phone = %v; want ErrDeviceOffline", err)
	}
	off := NewPool(c, PoolOptions{ReconnectTimeout: -1})
	s.SetDevices(adbtest.Device{Serial: "127.0.0.1:5555", State: "offline"})
	if _, err := off.Get(tctx(t), "127.0.0.1:5555"); !errors.Is(err, adb.ErrDeviceOffline) {
		t.Errorf("Get with re-attaching off = %v; want ErrDeviceOffline", err)
	}
}
