# SPDX-License-Identifier: GPL-2.0-only
#
# linkperf:perf-textpoke-script[1], the cross-reference macro perf's man
# pages use, for asciidoctor's manpage backend: the page name in bold and
# its section, as man pages spell a reference to another page.
require 'asciidoctor/extensions'

Asciidoctor::Extensions.register do
  inline_macro do
    named :linkperf
    name_positional_attributes 'volnum'
    process do |parent, target, attrs|
      name = create_inline parent, :quoted, target, type: :strong
      create_inline parent, :quoted, %(#{name.convert}(#{attrs['volnum']}))
    end
  end
end
