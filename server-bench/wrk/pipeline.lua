-- wrk script: 16 pipelined GET / requests per round trip (wrk counts each as one request).
local depth = 16

init = function(args)
   local r = {}
   for i = 1, depth do
      r[i] = wrk.format("GET", "/")
   end
   req = table.concat(r)
end

request = function()
   return req
end
