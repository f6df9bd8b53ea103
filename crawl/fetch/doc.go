// Package fetch downloads one URL for the crawler over HTTP(S) or FTP, as in
// paper 000 §1.3: connect directly or through a proxy (a connection failure
// drops the page), send the user and password a site needs, give up after a
// timeout, follow redirects to their target, read date, length and content
// type from the headers, filter by the configured limits, and read the body
// in bounded chunks.
//
// What a Fetcher guarantees:
//   - Time: dialling (TCP connect, SOCKS handshake, TLS handshake) is bounded
//     by Config.ConnectTimeout; the whole Fetch, every redirect hop and the
//     body included, by Config.Timeout. A server that drips bytes times out.
//   - Memory: a body is never held beyond Config.MaxSize bytes after
//     decompression. An uncompressed body that is longer is cut there and
//     marked Truncated; a compressed one that inflates past the cap is a
//     KindTooLarge error, so compression bombs are stopped at the cap.
//   - Text: a body of a textual type is returned as valid UTF-8, decoded from
//     the charset named by the BOM, the Content-Type header or a <meta> tag
//     (in that order of trust). Callers must not decode it again.
//   - Credentials: basic-auth credentials go only to the host:port they are
//     configured for, never to another host after a redirect.
//   - DNS: names are resolved through Config.Resolver with a TTL cache shared
//     by all fetches; failures are cached briefly too.
//
// A response with a non-2xx status is not an error: Fetch returns it with its
// status and headers and no body. Errors are *Error values whose Kind says
// what went wrong (connect, timeout, too large, ...).
package fetch
