#!/bin/sh
# The image's health check: `mancala-server --health` with the flags the entrypoint started the
# server with (its port and address), so it follows whatever came after the image name.
exec xargs -0 -a /tmp/mancala-server.flags mancala-server --health
