-- wrk script: a uniformly random page out of the 1,000.
math.randomseed(os.time())
request = function()
  return wrk.format("GET", "/p/" .. math.random(0, 999) .. ".html")
end
