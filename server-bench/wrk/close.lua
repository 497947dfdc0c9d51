-- wrk script: one request per connection (the server closes after answering; wrk reconnects).
wrk.headers["Connection"] = "close"
