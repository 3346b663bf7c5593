package adb

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// DefaultAddr is where an ADB server listens unless told otherwise.
const DefaultAddr = "127.0.0.1:5037"

// Config says how to reach the ADB server.
type Config struct {
	// Addr is the server's host:port; empty means DefaultAddr.
	Addr string
	// DialTimeout bounds connecting when the context has no deadline;
	// zero means 5 seconds.
	DialTimeout time.Duration
}

// Client talks to one ADB server. It holds no connection between calls and
// is safe for concurrent use.
type Client struct {
	addr        string
	dialTimeout time.Duration
}

// New returns a client for the server in cfg.
func New(cfg Config) *Client {
	c := &Client{addr: cfg.Addr, dialTimeout: cfg.DialTimeout}
	if c.addr == "" {
		c.addr = DefaultAddr
	}
	if c.dialTimeout <= 0 {
		c.dialTimeout = 5 * time.Second
	}
	return c
}

// Addr returns the server address the client uses.
func (c *Client) Addr() string { return c.addr }

// conn is one request's connection, tied to its context.
type conn struct {
	net.Conn
	ctx  context.Context
	stop func() bool
}

// Close releases the connection and its context watcher.
func (cn *conn) Close() error {
	cn.stop()
	return cn.Conn.Close()
}

// wrap turns an I/O error into the context's error when the context ended,
// since closing the connection on cancel is what caused it.
func (cn *conn) wrap(service string, err error) error {
	if err == nil {
		return nil
	}
	if ce := cn.ctx.Err(); ce != nil {
		return fmt.Errorf("adb: %s: %w", service, ce)
	}
	if _, ok := cn.ctx.Deadline(); ok && errors.Is(err, os.ErrDeadlineExceeded) {
		// The connection deadline is the context's; it can fire just before
		// the context notices.
		return fmt.Errorf("adb: %s: %w", service, context.DeadlineExceeded)
	}
	var fe *FailError
	if errors.As(err, &fe) {
		return err
	}
	return fmt.Errorf("adb: %s: %w", service, err)
}

func (c *Client) dial(ctx context.Context) (*conn, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	d := net.Dialer{}
	if _, ok := ctx.Deadline(); !ok {
		d.Timeout = c.dialTimeout
	}
	nc, err := d.DialContext(ctx, "tcp", c.addr)
	if err != nil {
		if ce := ctx.Err(); ce != nil {
			return nil, fmt.Errorf("adb: connecting to %s: %w", c.addr, ce)
		}
		if _, ok := ctx.Deadline(); ok && errors.Is(err, os.ErrDeadlineExceeded) {
			// The dialer's deadline is the context's and can fire first.
			return nil, fmt.Errorf("adb: connecting to %s: %w", c.addr, context.DeadlineExceeded)
		}
		if errors.Is(err, syscall.ECONNREFUSED) {
			return nil, fmt.Errorf("%w at %s: start it with `%s`", ErrServerNotRunning, c.addr, c.startCommand())
		}
		return nil, fmt.Errorf("adb: connecting to the adb server at %s: %w", c.addr, err)
	}
	if dl, ok := ctx.Deadline(); ok {
		_ = nc.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { _ = nc.Close() })
	return &conn{Conn: nc, ctx: ctx, stop: stop}, nil
}

// startCommand is the command that starts a server at c.addr.
func (c *Client) startCommand() string {
	_, port, err := net.SplitHostPort(c.addr)
	if err != nil || port == "5037" {
		return "adb start-server"
	}
	return "adb -P " + port + " start-server"
}

// send writes one host request: 4 hex digits of length, then the text.
func send(w io.Writer, req string) error {
	if len(req) > 0xffff {
		return fmt.Errorf("request of %d bytes is longer than the protocol's 65535", len(req))
	}
	_, err := io.WriteString(w, fmt.Sprintf("%04x%s", len(req), req))
	return err
}

// readStatus reads OKAY or FAIL+message.
func readStatus(r io.Reader, service string) error {
	var st [4]byte
	if _, err := io.ReadFull(r, st[:]); err != nil {
		return err
	}
	switch string(st[:]) {
	case "OKAY":
		return nil
	case "FAIL":
		msg, err := readHexString(r)
		if err != nil {
			return err
		}
		return &FailError{Service: service, Message: msg}
	}
	return &ProtocolError{Service: service, Detail: fmt.Sprintf("status %q", st[:])}
}

// readHexString reads a 4-hex-digit length and that many bytes.
func readHexString(r io.Reader) (string, error) {
	var hx [4]byte
	if _, err := io.ReadFull(r, hx[:]); err != nil {
		return "", err
	}
	n, err := strconv.ParseUint(string(hx[:]), 16, 16)
	if err != nil {
		return "", fmt.Errorf("bad length prefix %q", hx[:])
	}
	buf := make([]byte, n)
	if _, err := io.ReadFull(r, buf); err != nil {
		return "", err
	}
	return string(buf), nil
}

// hostRequest sends a host service and returns the connection after OKAY.
func (c *Client) hostRequest(ctx context.Context, service string) (*conn, error) {
	cn, err := c.dial(ctx)
	if err != nil {
		return nil, err
	}
	if err := send(cn, service); err != nil {
		cn.Close()
		return nil, cn.wrap(service, err)
	}
	if err := readStatus(cn, service); err != nil {
		cn.Close()
		return nil, cn.wrap(service, err)
	}
	return cn, nil
}

// hostString runs a host service whose reply is one length-prefixed string.
func (c *Client) hostString(ctx context.Context, service string) (string, error) {
	cn, err := c.hostRequest(ctx, service)
	if err != nil {
		return "", err
	}
	defer cn.Close()
	s, err := readHexString(cn)
	return s, cn.wrap(service, err)
}

// Version returns the server's protocol version (41 for adb 1.0.41).
func (c *Client) Version(ctx context.Context) (int, error) {
	s, err := c.hostString(ctx, "host:version")
	if err != nil {
		return 0, err
	}
	v, err := strconv.ParseUint(s, 16, 32)
	if err != nil {
		return 0, &ProtocolError{Service: "host:version", Detail: fmt.Sprintf("version %q", s)}
	}
	return int(v), nil
}

// Kill asks the server to exit.
func (c *Client) Kill(ctx context.Context) error {
	cn, err := c.hostRequest(ctx, "host:kill")
	if err != nil {
		return err
	}
	return cn.Close()
}

// Connect attaches a network phone (host:port) to the server. The server
// answers with text even when it fails; that text becomes a *FailError.
func (c *Client) Connect(ctx context.Context, hostport string) error {
	service := "host:connect:" + hostport
	msg, err := c.hostString(ctx, service)
	if err != nil {
		return err
	}
	if strings.HasPrefix(msg, "connected to") || strings.HasPrefix(msg, "already connected to") {
		return nil
	}
	return &FailError{Service: service, Message: msg}
}

// Disconnect detaches a network phone from the server.
func (c *Client) Disconnect(ctx context.Context, hostport string) error {
	service := "host:disconnect:" + hostport
	msg, err := c.hostString(ctx, service)
	if err != nil {
		return err
	}
	if msg != "" && !strings.HasPrefix(msg, "disconnected") {
		return &FailError{Service: service, Message: msg}
	}
	return nil
}

// transport opens a connection switched to the phone with this serial
// ("" means the only phone there is).
func (c *Client) transport(ctx context.Context, serial string) (*conn, error) {
	service := "host:transport:" + serial
	if serial == "" {
		service = "host:transport-any"
	}
	cn, err := c.hostRequest(ctx, service)
	if err == nil {
		return cn, nil
	}
	return nil, c.deviceError(ctx, serial, err)
}

// deviceError maps a refused transport to the typed errors.
func (c *Client) deviceError(ctx context.Context, serial string, err error) error {
	var fe *FailError
	if !errors.As(err, &fe) {
		return err
	}
	msg := strings.ToLower(fe.Message)
	switch {
	case strings.Contains(msg, "unauthorized"):
		return fmt.Errorf("adb: %s: %w", serial, ErrUnauthorized)
	case strings.Contains(msg, "offline"):
		return fmt.Errorf("adb: %s: %w", serial, ErrDeviceOffline)
	case strings.Contains(msg, "not found") || strings.Contains(msg, "no devices"):
		nf := &DeviceNotFoundError{Serial: serial}
		if devs, derr := c.Devices(ctx); derr == nil {
			for _, d := range devs {
				nf.Present = append(nf.Present, d.Serial)
			}
		}
		return nf
	case strings.Contains(msg, "more than one"):
		return &FailError{Service: fe.Service, Message: fe.Message + ": pass the serial of the phone to use"}
	}
	return err
}

// OpenService switches to the phone and starts a device service (such as
// "shell:ls" or "exec:screencap -p"), returning the stream. The caller reads
// it to EOF and closes it.
func (c *Client) OpenService(ctx context.Context, serial, service string) (net.Conn, error) {
	cn, err := c.transport(ctx, serial)
	if err != nil {
		return nil, &NotStartedError{Service: service, Err: err}
	}
	if err := send(cn, service); err != nil {
		// Part of the request may have reached the server: it may run.
		cn.Close()
		return nil, cn.wrap(service, err)
	}
	if err := readStatus(cn, service); err != nil {
		cn.Close()
		var fe *FailError
		refused := errors.As(err, &fe)
		err = c.deviceError(ctx, serial, cn.wrap(service, err))
		if refused {
			// The server or the phone refused to start the service.
			return nil, &NotStartedError{Service: service, Err: err}
		}
		return nil, err
	}
	return cn, nil
}

// runService runs a device service and returns everything it wrote.
func (c *Client) runService(ctx context.Context, serial, service string) ([]byte, error) {
	nc, err := c.OpenService(ctx, serial, service)
	if err != nil {
		return nil, err
	}
	cn := nc.(*conn)
	defer cn.Close()
	out, err := io.ReadAll(cn) // io.ReadAll keeps bytes that arrive together with io.EOF
	if err != nil {
		return out, cn.wrap(service, err)
	}
	return out, nil
}

// Shell runs cmd with the phone's shell (the "shell:" service) and returns
// its output. Without shell protocol v2 the phone sends stdout and stderr
// mixed and no exit status, so callers judge success from the text.
func (c *Client) Shell(ctx context.Context, serial, cmd string) ([]byte, error) {
	return c.runService(ctx, serial, "shell:"+cmd)
}

// Exec runs cmd with the binary-safe "exec:" service (no terminal, no
// newline translation); use it for binary output such as screencap -p.
func (c *Client) Exec(ctx context.Context, serial, cmd string) ([]byte, error) {
	return c.runService(ctx, serial, "exec:"+cmd)
}

// Quote makes s one single-quoted argument for the phone's sh.
func Quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_@%+=:,./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
