package adb

import (
	"context"
	"errors"
	"io"
)

// ExecSized is Exec for output of about sizeHint bytes (a raw screencap is
// 4 bytes a pixel, 10 MB at 1080×2400): the buffer is allocated once at
// that size instead of growing from a few hundred bytes, which copies the
// output several times over. Output longer than the hint still arrives
// whole.
func (c *Client) ExecSized(ctx context.Context, serial, cmd string, sizeHint int) ([]byte, error) {
	service := "exec:" + cmd
	nc, err := c.OpenService(ctx, serial, service)
	if err != nil {
		return nil, err
	}
	cn := nc.(*conn)
	defer cn.Close()
	// Room past the hint, so that output of the hint's size meets EOF
	// without a reallocation.
	buf := make([]byte, 0, max(sizeHint, 0)+512)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := cn.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if errors.Is(err, io.EOF) {
			return buf, nil
		}
		if err != nil {
			return buf, cn.wrap(service, err)
		}
	}
}
