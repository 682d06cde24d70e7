// Client unit tests run components in Node, where a stylesheet import (webpack's job in the
// build) would be read as JavaScript: here it is a module with nothing in it.
require.extensions['.css'] = (module) => {
  module.exports = {};
};
