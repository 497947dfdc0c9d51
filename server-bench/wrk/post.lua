-- wrk script: POST /echo with a 1 KiB body, answered with the same body.
wrk.method = "POST"
wrk.path = "/echo"
wrk.body = string.rep("x", 1024)
wrk.headers["Content-Type"] = "application/octet-stream"
