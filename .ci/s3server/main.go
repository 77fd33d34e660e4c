// Command s3server runs gofakes3 (an S3-compatible server in Go) for the S3 blob store adapter's
// tests, the way .ci/ferretdb runs FerretDB for the MongoDB suites: no Docker and no download
// but the Go module proxy, so the S3 adapter's contract suite can run against a real S3 wire
// protocol in CI.
//
// It is gofakes3's library behind a few flags rather than its own cmd/gofakes3: that command
// cannot listen on a free port chosen by the kernel and announce it, nor stop when the test
// process that started it goes away, and it logs every request.
//
// It listens on -listen (port 0: a free one), keeps objects in memory (a test run's blobs are a
// few tens of MB), prints "ready http://host:port" on stdout once it accepts connections, and
// stops on SIGINT/SIGTERM or when its standard input closes.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/johannesboyne/gofakes3"
	"github.com/johannesboyne/gofakes3/backend/s3mem"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:0", "TCP address to listen on (port 0: any free port)")
	bucket := flag.String("bucket", "", "a bucket to create at start (optional)")
	verbose := flag.Bool("verbose", false, "log every request on stderr")
	watchStdin := flag.Bool("exit-on-stdin-close", true, "stop when standard input reaches its end")
	flag.Parse()

	backend := s3mem.New()
	if *bucket != "" {
		if err := backend.CreateBucket(*bucket); err != nil && !gofakes3.IsAlreadyExists(err) {
			fmt.Fprintf(os.Stderr, "s3server: cannot create bucket %q: %v\n", *bucket, err)
			os.Exit(1)
		}
	}
	logger := gofakes3.DiscardLog()
	if *verbose {
		logger = gofakes3.GlobalLog()
	}
	// Content-MD5 is checked when a client sends one, as S3 does.
	faker := gofakes3.New(backend, gofakes3.WithLogger(logger), gofakes3.WithIntegrityCheck(true))

	listener, err := net.Listen("tcp", *listen)
	if err != nil {
		fmt.Fprintf(os.Stderr, "s3server: %v\n", err)
		os.Exit(1)
	}
	server := &http.Server{Handler: faker.Server(), ReadHeaderTimeout: 30 * time.Second}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *watchStdin {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			stop()
		}()
	}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = server.Shutdown(shutdown)
	}()

	// The listener is bound: clients can connect from here on.
	fmt.Printf("ready http://%s\n", listener.Addr().String())
	if err := server.Serve(listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Fatalf("s3server: %v", err)
	}
}
