package loopback

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"time"
)

// What Holder finds listening on a port.
const (
	HolderUnknown     = ""
	HolderADB         = "adb"    // an adb server (answers host:version)
	HolderModelServer = "models" // an OpenAI-compatible server (answers /v1/models)
	HolderWebUI       = "webui"  // a Temporal Web UI (answers /api/v1/settings)
	HolderGRPC        = "grpc"   // an HTTP/2 server, such as a Temporal frontend
	HolderHTTP        = "http"   // some other HTTP server
	probeTimeout      = 700 * time.Millisecond
)

// Holder guesses what listens on addr, so a "port in use" error can name
// it instead of assuming. It speaks to the port the way each candidate
// expects and returns one of the Holder constants.
func Holder(addr string) string {
	if isADB(addr) {
		return HolderADB
	}
	if isHTTP2(addr) {
		return HolderGRPC
	}
	hc := &http.Client{Timeout: probeTimeout}
	get := func(path string) (int, []byte) {
		resp, err := hc.Get("http://" + addr + path)
		if err != nil {
			return 0, nil
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return resp.StatusCode, b
	}
	code, body := get("/v1/models")
	var models struct {
		Data []json.RawMessage `json:"data"`
	}
	if code == http.StatusOK && json.Unmarshal(body, &models) == nil && models.Data != nil {
		return HolderModelServer
	}
	if code, body := get("/api/v1/settings"); code == http.StatusOK && bytes.Contains(body, []byte("Codec")) {
		return HolderWebUI
	}
	if code != 0 {
		return HolderHTTP
	}
	return HolderUnknown
}

// isADB sends the adb host protocol's version request.
func isADB(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, probeTimeout)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(probeTimeout))
	if _, err := io.WriteString(c, "000chost:version"); err != nil {
		return false
	}
	var b [4]byte
	_, err = io.ReadFull(c, b[:])
	return err == nil && string(b[:]) == "OKAY"
}

// isHTTP2 sends the HTTP/2 client preface and an empty SETTINGS frame and
// looks for the server's SETTINGS frame, which gRPC servers send.
func isHTTP2(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, probeTimeout)
	if err != nil {
		return false
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(probeTimeout))
	preface := "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + "\x00\x00\x00\x04\x00\x00\x00\x00\x00"
	if _, err := io.WriteString(c, preface); err != nil {
		return false
	}
	var h [9]byte
	if _, err := io.ReadFull(c, h[:]); err != nil {
		return false
	}
	return h[3] == 0x4 // frame type SETTINGS
}

// InUseHint says who holds addr and what to do, for a port-in-use error:
// flag is the option that picks another port (e.g. "--temporal-port").
// What it suggests depends on the holder: a Temporal frontend may be used
// as it is (--temporal-address); other holders are named so the user
// knows which program to stop.
func InUseHint(addr, flag string) string {
	_, port, _ := net.SplitHostPort(addr)
	other := "pick another port with " + flag
	switch Holder(addr) {
	case HolderADB:
		return "an adb server holds it (stop it with `adb -P " + port + " kill-server`), or " + other
	case HolderModelServer:
		return "an OpenAI-compatible model server holds it (e.g. `starter modelserver`): stop it, or " + other
	case HolderWebUI:
		return "a Temporal Web UI holds it (another demo or `worker --dev`): stop it, or " + other
	case HolderGRPC:
		if strings.Contains(flag, "ui-port") {
			return "a gRPC server holds it (a Temporal server's frontend?): " + other
		}
		return "a Temporal server may already be running there — use it with --temporal-address " + addr + ", or " + other
	case HolderHTTP:
		return "a web server holds it: stop it, or " + other
	}
	return "another program holds it (find it with `ss -ltnp 'sport = :" + port + "'`): stop it, or " + other
}
