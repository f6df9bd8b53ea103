# The headless trawler (every command but the window) in a minimal image:
#   docker build -t trawler .
#   docker run --rm --network host -v "$PWD:/data" trawler crawl --db /data/site.db https://example.com/
# It runs as an unprivileged user; its database and logs go where --db says
# (a mounted volume), or under /home/nonroot/.config/trawler by default.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -tags nogui -trimpath -ldflags "-s -w" -o /out/trawler .

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/trawler /trawler
USER nonroot
ENTRYPOINT ["/trawler"]
CMD ["help"]
